// Readable pages (issue 27): every page (overview, sessions, a session, servers, alerts, incidents,
// dead letters, settings, login) at 1440 and 390 px in both themes passes axe-core's WCAG AA colour
// contrast and a few cheap naming rules (buttons, links, form fields), its SVG text (which axe does
// not judge) passes the same 4.5:1, and no two words run together where a space was lost (a JSX
// line break, or a space at the edge of a flex item, which flex layout drops).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { signedIn } from '../support/signed-in';
import { postEvents } from '../support/post-events';
import { axeProblems } from './axe-checks';
import { SERVERS, TOKENS, launch, seed, serversEnv, shot } from './fixtures';

let app: AppServer;
let browser: Browser;

const PAGES = [
  { name: 'overview', path: '/?from=now-1h&to=now', ready: '[data-testid="chart-boundary"] .recharts-bar-rectangle' },
  { name: 'sessions', path: '/sessions?from=now-1h&to=now', ready: '[data-testid="session-row"]' },
  { name: 'session', path: `/servers/${SERVERS.naive.name}/sessions/${TOKENS.deadlock}`, ready: '[data-testid="timeline-svg"]' },
  { name: 'servers', path: '/servers', ready: `[data-testid="server-row-${SERVERS.good.name}"]` },
  { name: 'alerts', path: '/alerts', ready: '[data-testid="firing-alerts"]' },
  { name: 'incidents', path: '/incidents', ready: '[data-testid="incident-row"]' },
  { name: 'dead-letters', path: '/dead-letters?from=now-1h&to=now', ready: '[data-testid="dead-letters-table"]' },
  { name: 'settings', path: '/settings', ready: '[data-testid="operators-table"]' },
];

// The checks below run in the page; strings, not functions, because the test's transpiler wraps nested
// named functions in a helper the page lacks.

/** SVG text below 4.5:1 against the panel behind it (axe skips SVG text; the timeline's notes are SVG). */
const SVG_TEXT_CONTRAST = `(() => {
  const rgb = (s) => { const m = s.match(/[\\d.]+/g) || []; return m.slice(0, 4).map(Number); };
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length === 3 || c[3] > 0.99) return c.slice(0, 3); } return [255, 255, 255]; };
  const out = [];
  for (const t of document.querySelectorAll('svg text')) {
    const text = (t.textContent || '').trim();
    const cs = getComputedStyle(t);
    if (!text || cs.visibility === 'hidden' || cs.display === 'none' || t.getBoundingClientRect().width === 0) continue;
    if (!/^rgb/.test(cs.fill)) continue;
    const fill = rgb(cs.fill);
    if (fill.length === 4 && fill[3] < 0.99) continue;
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    const r = ratio(fill.slice(0, 3), behind(t.parentElement));
    if (r < (large ? 3 : 4.5) - 0.005) out.push('"' + text + '" ' + cs.fill + ' at ' + size + ' px: ' + r.toFixed(2) + ':1');
  }
  return [...new Set(out)];
})()`;

/**
 * Words run together: a text node ending in . , ; : ! ? right before an element that starts with a letter
 * or digit ("incomplete.<strong>Rejected</strong>"); and in a flex or grid container without a gap (a
 * chip), a space at the edge of a run of text next to an element, or a lone space between two elements,
 * which the layout drops ("since" + <time>45 s ago</time>).
 */
const JOINED_WORDS = `(() => {
  const out = [];
  const words = (n) => (n && n.nodeType === 1 ? (n.textContent || '').trim() : '');
  const around = (el) => (el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 80);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent || '';
    if (!text.trim() || !n.parentElement || n.parentElement.closest('script, style, svg')) continue;
    const next = words(n.nextSibling);
    if (/[.,;:!?]$/.test(text) && /^[A-Za-z0-9]/.test(next))
      out.push('"' + text.trim().slice(-20) + '" + "' + next.slice(0, 20) + '" in "' + around(n.parentElement) + '"');
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg')) continue;
    const cs = getComputedStyle(el);
    if (!/flex|grid/.test(cs.display) || parseFloat(cs.columnGap) > 0) continue;
    const kids = [...el.childNodes].filter((k) => k.nodeType === 1 || k.nodeType === 3);
    let run = '';
    let before = null;
    for (let i = 0; i <= kids.length; i++) {
      const k = kids[i];
      if (k && k.nodeType === 3) { run += k.textContent; continue; }
      const lost = run.trim()
        ? (/^\\s/.test(run) && words(before)) || (/\\s$/.test(run) && words(k))
        : run && words(before) && words(k);
      if (lost) out.push('a flex layout drops a space in "' + around(el) + '"');
      run = '';
      before = k;
    }
  }
  return [...new Set(out)];
})()`;

describe('readable', () => {
  before(async () => {
    [app, browser] = await Promise.all([
      startAppServer({ env: { DOORWATCH_SERVERS: serversEnv(), DOORWATCH_ALERT_INTERVAL_MS: '300' } }),
      launch(),
    ]);
    await seed(app.url);
    // One event that fails the contract: the dead-letters page has a row.
    const refused = await postEvents(app.url, SERVERS.good.name, SERVERS.good.secret, [
      { id: 'ev-readable-bad', token: 'tok-readable-bad', type: 'not.a.type', at: new Date().toISOString() },
    ]);
    assert.equal(refused.status, 207);
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  for (const theme of ['light', 'dark'] as const)
    for (const width of [1440, 390])
      test(`every page at ${width} px, ${theme}: AA contrast (axe and SVG text), named controls, no words run together`, async () => {
        const context = await browser.newContext({
          viewport: { width, height: width === 390 ? 844 : 900 },
          colorScheme: theme,
          timezoneId: 'UTC',
        });
        // Every page is checked before the verdict, so one run lists every problem.
        const problems: string[] = [];
        try {
          const page = await context.newPage();
          await page.goto(`${app.url}/login`);
          await page.locator('[data-testid="login-form"]').waitFor();
          problems.push(...(await axeProblems(page)).map((p) => `login: ${p}`));
          const signed = await signedIn(context, app.url);
          for (const p of PAGES) {
            await signed.goto(`${app.url}${p.path}`);
            await signed.locator(p.ready).first().waitFor();
            // Wait out a refetch's dimmed placeholder before judging colours.
            await signed.waitForFunction(() => document.querySelector('.stale') === null);
            assert.equal(await signed.evaluate(() => document.documentElement.dataset.theme), theme);
            await signed.screenshot({ path: shot(`readable-${p.name}-${width}-${theme}`), fullPage: true });
            problems.push(...(await axeProblems(signed)).map((x) => `${p.name}: ${x}`));
            problems.push(...(await signed.evaluate<string[]>(SVG_TEXT_CONTRAST)).map((x) => `${p.name}: svg text ${x}`));
            problems.push(...(await signed.evaluate<string[]>(JOINED_WORDS)).map((x) => `${p.name}: ${x}`));
          }
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      });

  test('plain words with a tip on hover and keyboard focus: the theme toggle, the loading light, the alarm count, the jargon', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    try {
      const page = await signedIn(context, app.url);
      /** The tip that describes `selector`'s element (aria-describedby), once focused: shown, and its text. */
      const tipOnFocus = async (selector: string) => {
        const el = page.locator(selector).first();
        await el.focus();
        const id = await el.getAttribute('aria-describedby');
        assert.ok(id, `${selector} has no aria-describedby`);
        const tip = page.locator(`[id="${id}"]`);
        await tip.waitFor({ state: 'visible' });
        assert.equal(await tip.getAttribute('role'), 'tooltip');
        return tip.innerText();
      };

      await page.goto(`${app.url}/?from=now-1h&to=now`);
      await page.locator('[data-testid="ongoing-deadlocks"]').waitFor();
      // The theme toggle says which theme it is, in words.
      const toggle = page.locator('[data-testid="theme-toggle"]');
      assert.match(await toggle.innerText(), /Light/);
      assert.match((await toggle.getAttribute('aria-label')) ?? '', /^Theme: light/);
      // The loading light next to the range's zoom-out button is explained.
      assert.match(await tipOnFocus('[aria-describedby="refresh-tip"]'), /Loading light: blue and pulsing while the page fetches data/);
      // The alarm's big number says what it counts.
      const count = page.locator('[data-testid="alarm-count"]');
      assert.match(await count.innerText(), /^1\s+stuck now$/);
      assert.match(await tipOnFocus('[data-testid="alarm-count"]'), /stuck at the upgrade boundary right now/);
      // The verdict in the server strip, in plain words with its meaning.
      assert.match(
        await page.locator(`[data-testid="strip-${SERVERS.naive.name}"] [data-testid="verdict-naive"]`).innerText(),
        /^resumes naively ✗/,
      );
      await page.screenshot({ path: shot('readable-tip-alarm-1440-light'), clip: { x: 0, y: 0, width: 1440, height: 420 } });

      await page.goto(`${app.url}/servers`);
      const naiveRow = page.locator(`[data-testid="server-row-${SERVERS.naive.name}"]`);
      await naiveRow.waitFor();
      await naiveRow.locator('[data-testid="verdict-naive"]').hover();
      const verdictTip = naiveRow.locator('[data-testid="verdict-naive"] [role="tooltip"]');
      await verdictTip.waitFor({ state: 'visible' });
      assert.match(await verdictTip.innerText(), /accepted a resume instead of refusing it/);
      const head = await page.locator('[data-testid="server-table"] thead').innerText();
      assert.doesNotMatch(head, /Rejected \(range\)/i);
      assert.match(await tipOnFocus('[data-testid="server-table"] thead .term'), /refused in the selected time range/);
      assert.match(await page.locator('[data-testid="servers"] p.small').first().innerText(), /incomplete\. Refused at ingest:/);
      await page.screenshot({ path: shot('readable-tip-servers-1440-light'), clip: { x: 0, y: 0, width: 1440, height: 420 } });

      await page.goto(`${app.url}/sessions?from=now-1h&to=now`);
      await page.locator('[data-testid="session-row"]').first().waitFor();
      assert.equal(await page.locator('label[for="synthetic-select"]').innerText(), 'Door-probe sessions');
      assert.equal(await page.locator('#synthetic-select option:checked').innerText(), 'Shown');
      assert.match(await tipOnFocus('#synthetic-select'), /Doorwatch opened itself to test a server/);
      assert.match(
        await page.locator('label.flag-toggle', { has: page.locator('[data-testid="flag-resume_conflict"]') }).innerText(),
        /second resume refused \(409\)/,
      );
      assert.match(await tipOnFocus('[data-testid="flag-resume_conflict"]'), /still connected; the server said no \(409 Conflict\)/);
      assert.match(await tipOnFocus('[data-testid="flag-unknown_cursor"]'), /event id \(Last-Event-ID\) the server did not know/);
      assert.match(await tipOnFocus('[data-testid="flag-lossy_resume"]'), /fewer events than the server still held/);
      await page.screenshot({ path: shot('readable-tip-sessions-1440-light'), clip: { x: 0, y: 0, width: 1440, height: 420 } });
      assert.equal(await page.locator('[title^="Only sessions flagged"]').count(), 0);

      // The alert rules' state chips keep the space before the time.
      await page.goto(`${app.url}/alerts`);
      await page.locator('[data-testid="firing-alerts"]').waitFor();
      const states = await page.locator('[data-testid^="alert-rule-"] .chip', { hasText: 'since' }).allInnerTexts();
      assert.ok(states.length > 0);
      for (const s of states) assert.match(s, /since \d/);
    } finally {
      await context.close();
    }
  });
});
