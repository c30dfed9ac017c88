// Known timelines for the browser tests, anchored a few minutes before "now" so the default
// "last 1 hour" range shows them. Each exercises one thing the dashboard must make obvious.
import { randomBytes } from 'node:crypto';
import { chromium, type Browser, type Page, type Response } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { postEvents } from '../support/post-events';
import { disableFeaturesSwitch } from './chromium-features';

export { TEST_ADMIN_TOKEN as ADMIN_TOKEN } from '../support/app-server';
export const SCREENSHOTS = join(__dirname, '..', '..', 'test-output', 'screenshots');

export const SERVERS = {
  good: { name: 'mcp-good', secret: `whsec_${randomBytes(32).toString('base64')}` },
  naive: { name: 'mcp-naive', secret: `whsec_${randomBytes(32).toString('base64')}` },
};

export const serversEnv = () =>
  Object.values(SERVERS)
    .map((s) => `${s.name}=${s.secret}`)
    .join(',');

export const TOKENS = {
  refused: 'tok-refused-0001',
  successor: 'tok-reneg-0002',
  deadlock: 'tok-naive-deadlock-0003',
  ongoing: 'tok-naive-ongoing-0004',
  dual: 'tok-dual-0005',
};

let n = 0;
const ev = (token: string, type: string, atMs: number, data?: Record<string, unknown>) => ({
  id: `ev-${token}-${++n}`,
  token,
  type,
  at: new Date(atMs).toISOString(),
  ...(data ? { data } : {}),
});

/** Seeds the five sessions; returns the anchor time (epoch ms) of the first event. */
export async function seed(baseUrl: string, now = Date.now()): Promise<number> {
  const T = Math.floor((now - 20 * 60_000) / 60_000) * 60_000 + 5_000; // 20 min ago, 5 s into a minute
  const good = [
    // Refused at the boundary in 48 ms, then renegotiated 132 ms later with a fresh token.
    ev(TOKENS.refused, 'session.opened', T),
    ev(TOKENS.refused, 'upgrade.accepted', T + 1000, { eventId: 7 }),
    ev(TOKENS.refused, 'stream.dropped', T + 1060, { reason: 'tcp reset' }),
    ev(TOKENS.refused, 'resume.requested', T + 1120, { lastEventId: 7 }),
    ev(TOKENS.refused, 'resume.refused', T + 1168, { reason: 'session-superseded' }),
    ev(TOKENS.successor, 'session.opened', T + 1300, { previousToken: TOKENS.refused }),
    ev(TOKENS.successor, 'upgrade.accepted', T + 1400, { eventId: 3 }),
    ev(TOKENS.successor, 'upgrade.completed', T + 1450),
  ];
  const D = T + 2 * 60_000;
  const O = now - 2 * 60_000;
  const X = T + 3 * 60_000;
  const naive = [
    // Naive resume: an idle SSE stream, the client waits until the 300 s idle timeout.
    ev(TOKENS.deadlock, 'session.opened', D),
    ev(TOKENS.deadlock, 'upgrade.accepted', D + 1000, { eventId: 12 }),
    ev(TOKENS.deadlock, 'stream.dropped', D + 1050),
    ev(TOKENS.deadlock, 'resume.requested', D + 1100, { lastEventId: 12 }),
    ev(TOKENS.deadlock, 'resume.accepted', D + 1110, { replayed: 0 }),
    ev(TOKENS.deadlock, 'session.timeout', D + 301_110, { idleMs: 300_000 }),
    // Same, still stuck now (ongoing deadlock).
    ev(TOKENS.ongoing, 'session.opened', O),
    ev(TOKENS.ongoing, 'upgrade.accepted', O + 800, { eventId: 4 }),
    ev(TOKENS.ongoing, 'stream.dropped', O + 850),
    ev(TOKENS.ongoing, 'resume.requested', O + 900, { lastEventId: 4 }),
    ev(TOKENS.ongoing, 'resume.accepted', O + 912, { replayed: 0 }),
    // Dual negotiation: reconnect without Last-Event-ID, a second upgrade.accepted, 409.
    ev(TOKENS.dual, 'session.opened', X),
    ev(TOKENS.dual, 'upgrade.accepted', X + 1000, { eventId: 4 }),
    ev(TOKENS.dual, 'stream.dropped', X + 1040),
    ev(TOKENS.dual, 'resume.requested', X + 1090, { lastEventId: null }),
    ev(TOKENS.dual, 'upgrade.accepted', X + 1100, { eventId: 5 }),
    ev(TOKENS.dual, 'upgrade.rejected', X + 1180, { status: 409 }),
    ev(TOKENS.dual, 'session.closed', X + 4000, { reason: 'client fell back to SSE' }),
  ];
  for (const [srv, events] of [
    [SERVERS.good, good],
    [SERVERS.naive, naive],
  ] as const) {
    const res = await postEvents(baseUrl, srv.name, srv.secret, events);
    if (res.status !== 200) throw new Error(`seeding ${srv.name} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return T;
}

/**
 * Pages arrive server-rendered (real content in the HTML) and become interactive when React has
 * hydrated them (components/providers.tsx marks `html[data-hydrated]`). A key press or a select
 * change before that is lost, as it would be for a person; tests act as a person who waits for the
 * page to respond, so every full page load (goto, reload) of an HTML page waits for hydration.
 */
function waitForHydrationOnLoad(page: Page): void {
  const hydrated = async (response: Response | null) => {
    if (response?.headers()['content-type']?.includes('text/html')) {
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    }
    return response;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => hydrated(await goto(url, options));
  page.reload = async (options) => hydrated(await reload(options));
}

/**
 * How long any wait of a page (navigation, locator, URL) may take before the test fails as hung. It is
 * a bound for hangs, not a speed target: waits end on the awaited event, and how fast pages get there is
 * measured by `npm run bench:ui`. Short per-file timeouts (10 s) made pages fail only when the cores
 * were oversubscribed (a page.goto took > 10 s at load 35).
 */
const WAIT_BOUND_MS = 60_000;

export async function launch(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_BOUND_MS);
    context.on('page', waitForHydrationOnLoad);
    return context;
  };
  return browser;
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      disableFeaturesSwitch(),
    ],
  });
}

export const shot = (name: string) => join(SCREENSHOTS, `${name}.png`);

export { signIn } from '../support/signed-in';
