// The session timeline stays readable at the door: on a long session (36 events) no two texts
// or "+N" chips of the chart overlap at 1920, 1440, 1280 and 390 px in either spacing; a chip is
// a button that lists its events; "Zoom to the door", "Zoom out", "Reset" and a brush change the
// view and the URL (`?zoom=`, `?spacing=`), and a link reproduces it; only the naive answer is
// red; the door's number is the table's; the lanes and the alarm agree for a naive resume without
// Last-Event-ID. Screenshots (long and short session, every width, light and dark) land in
// test-output/screenshots/timeline-*.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { signedIn } from '../support/signed-in';
import { postEvents } from '../support/post-events';
import { SERVERS, TOKENS, launch, seed, serversEnv, shot } from './fixtures';

let app: AppServer;
let browser: Browser;
const consoleErrors: string[] = [];
const WIDTHS = [1920, 1440, 1280, 390];

const LONG = 'tok-long-0042';
const NO_CURSOR = 'tok-naive-nocursor-0043';
/** Events of the long session, in order (36). */
const LONG_TYPES: string[] = [];

async function postSession(token: string, steps: [string, number, Record<string, unknown>?][], t0: number) {
  const events = steps.map(([type, dt, data], i) => ({
    id: `ev-${token}-${i}`,
    token,
    type,
    at: new Date(t0 + dt).toISOString(),
    ...(data ? { data } : {}),
  }));
  const res = await postEvents(app.url, SERVERS.naive.name, SERVERS.naive.secret, events);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

interface Box {
  what: string;
  l: number;
  r: number;
  t: number;
  b: number;
}

/** Every text of the chart and every chip, as the browser lays them out. */
async function chartBoxes(page: Page): Promise<{ boxes: Box[]; svg: { l: number; r: number } }> {
  return page.evaluate(() => {
    const svg = document.querySelector('[data-testid="timeline-svg"]')!.getBoundingClientRect();
    const els = [
      ...document.querySelectorAll('[data-testid="timeline-svg"] text'),
      ...document.querySelectorAll('[data-testid="timeline-chip"]'),
    ];
    return {
      svg: { l: svg.left, r: svg.right },
      boxes: els.map((e) => {
        const r = e.getBoundingClientRect();
        return { what: `${e.tagName} "${e.textContent}"`, l: r.left, r: r.right, t: r.top, b: r.bottom };
      }),
    };
  });
}

function assertNoOverlap(where: string, { boxes, svg }: { boxes: Box[]; svg: { l: number; r: number } }) {
  assert.ok(boxes.length > 5, `${where}: only ${boxes.length} texts`);
  for (const [i, a] of boxes.entries()) {
    assert.ok(a.l >= svg.l - 0.5 && a.r <= svg.r + 0.5, `${where}: ${a.what} (${a.l}…${a.r}) leaves the chart (${svg.l}…${svg.r})`);
    for (const b of boxes.slice(i + 1)) {
      const overlap = a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5;
      assert.ok(!overlap, `${where}: ${a.what} overlaps ${b.what}`);
    }
  }
}

/** Names shown on the chart plus events held by chips: every event in view, once. */
async function accounted(page: Page): Promise<{ names: string[]; chipped: number }> {
  const names = await page.locator('[data-testid="timeline-svg"] text.ev-label').allTextContents();
  const chips = await page.locator('[data-testid="timeline-chip"]').allTextContents();
  return { names, chipped: chips.reduce((s, c) => s + Number(c.replace('+', '')), 0) };
}

const sessionUrl = (token: string, query = '') => `${app.url}/servers/${SERVERS.naive.name}/sessions/${token}${query}`;

describe('session timeline', () => {
  before(async () => {
    [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
    await seed(app.url);
    // Ten ordinary drop/resume cycles before the door (cursors before it: not the boundary), the
    // door, a drop, the boundary resume answered naively 10 ms later, the 300 s idle timeout.
    const steps: [string, number, Record<string, unknown>?][] = [['session.opened', 0]];
    for (let k = 0; k < 10; k++) {
      const at = 400 + k * 1_900;
      steps.push(
        ['stream.dropped', at],
        ['resume.requested', at + 40, { lastEventId: 2 + k * 3 }],
        ['resume.accepted', at + 52, { replayed: 1 }],
      );
    }
    steps.push(
      ['upgrade.accepted', 21_000, { eventId: 40 }],
      ['stream.dropped', 21_050],
      ['resume.requested', 21_100, { lastEventId: 40 }],
      ['resume.accepted', 21_110, { replayed: 0 }],
      ['session.timeout', 321_110, { idleMs: 300_000 }],
    );
    assert.equal(steps.length, 36);
    LONG_TYPES.push(...steps.map((s) => s[0]));
    await postSession(LONG, steps, Date.now() - 15 * 60_000);
    // Condition 3's second clause: a resume on the same token without Last-Event-ID while the
    // upgrade is pending, accepted; still stuck.
    await postSession(
      NO_CURSOR,
      [
        ['session.opened', 0],
        ['upgrade.accepted', 900, { eventId: 6 }],
        ['stream.dropped', 950],
        ['resume.requested', 1_000, { lastEventId: null }],
        ['resume.accepted', 1_012, { replayed: 0 }],
      ],
      Date.now() - 60_000,
    );
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  test('a long session: no label or chip overlaps at any width in either spacing; "+N" is a button that lists its events', async () => {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
      try {
        const page = await signedIn(context, app.url, consoleErrors);
        for (const spacing of ['time', 'sequence']) {
          const where = `${width} px, ${spacing}`;
          await page.goto(sessionUrl(LONG, `?spacing=${spacing}`));
          await page.locator(`[data-testid="timeline-svg"][data-spacing="${spacing}"][data-ready]`).waitFor();
          assert.equal(await page.locator('[data-testid="spacing-select"]').inputValue(), spacing);
          assertNoOverlap(where, await chartBoxes(page));
          const { names, chipped } = await accounted(page);
          assert.equal(names.length + chipped, 36, `${where}: ${names.length} names + ${chipped} in chips`);
          // The door and its resume keep their names (placed first).
          for (const want of ['upgrade.accepted', 'resume.requested', 'resume.accepted'])
            assert.ok(names.includes(want), `${where}: no "${want}" among ${names.join(' | ')}`);
          assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${where}: scrolls sideways`);
        }
        // Sequence spacing, the narrowest chart: at least one chip; open it with the keyboard.
        const chip = page.locator('[data-testid="timeline-chip"]').first();
        if (width === 390) assert.ok((await page.locator('[data-testid="timeline-chip"]').count()) > 0, 'a phone needs chips');
        if ((await page.locator('[data-testid="timeline-chip"]').count()) > 0) {
          const n = Number((await chip.textContent())!.replace('+', ''));
          assert.equal(await chip.evaluate((e) => e.tagName), 'BUTTON');
          assert.equal(await chip.getAttribute('aria-expanded'), 'false');
          await chip.focus();
          await page.keyboard.press('Enter');
          const list = page.locator('[data-testid="cluster-list"]');
          await list.waitFor();
          assert.equal(await chip.getAttribute('aria-expanded'), 'true');
          const items = await list.locator('[data-testid="cluster-event"]').allInnerTexts();
          assert.equal(items.length, n);
          // Each names its event with the table's number and type.
          for (const it of items) {
            const m = /#(\d+)\s+(\S+)/.exec(it);
            assert.ok(m, it);
            assert.equal(LONG_TYPES[Number(m[1]) - 1], m[2], it);
          }
          // Choosing one selects its row in the table.
          await list.locator('[data-testid="cluster-event"]').first().click();
          const num = /#(\d+)/.exec(items[0])![1];
          assert.equal((await page.locator('[data-testid="event-row"].selected-row td').first().innerText()).trim(), num);
          await page.screenshot({ path: shot(`timeline-long-${width}-chip-open`), fullPage: false });
          // "Zoom to these" (offered when they do not already span the view) brings them into view.
          const zoomThese = list.locator('[data-testid="cluster-zoom"]');
          if (width === 390) assert.equal(await zoomThese.count(), 1, 'a phone chip holds a short stretch');
          if ((await zoomThese.count()) > 0) {
            await zoomThese.click();
            await page.waitForURL(/[?&]zoom=/);
            await page.locator('[data-testid="zoom-reset"]:enabled').waitFor();
            const inView = await page
              .locator('[data-testid="timeline-event"]')
              .evaluateAll((els) => els.map((g) => g.getAttribute('data-num')));
            assert.ok(inView.includes(num), `${width}: event #${num} is in the zoomed view (${inView.join(',')})`);
            assertNoOverlap(`${width} px, zoomed to a chip`, await chartBoxes(page));
          }
        }
      } finally {
        await context.close();
      }
    }
  });

  test('zoom to the door separates its events on linear time; zoom out, reset and a brush change the URL, and a link reproduces the view', async () => {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
      try {
        const page = await signedIn(context, app.url, consoleErrors);
        await page.goto(sessionUrl(LONG, '?spacing=time'));
        await page.locator('[data-testid="timeline-svg"][data-spacing="time"][data-ready]').waitFor();
        // Unzoomed, the door's four events are one smear on a 5-minute axis.
        const doorTypes = ['upgrade.accepted', 'stream.dropped', 'resume.requested', 'resume.accepted'];
        const xsOf = () =>
          page.locator('[data-testid="timeline-event"]').evaluateAll((els) =>
            els.map((g) => ({
              num: Number(g.getAttribute('data-num')),
              type: g.getAttribute('data-type'),
              x: g.querySelector('circle')!.getBoundingClientRect().x,
            })),
          );
        const before = (await xsOf()).filter((e) => e.num >= 32 && e.num <= 35);
        assert.ok(before[3].x - before[0].x < 4, `${width}: the door spans ${before[3].x - before[0].x} px unzoomed`);

        await page.click('[data-testid="zoom-door"]');
        await page.waitForURL(/[?&]zoom=[^&]+/);
        const url = new URL(page.url());
        assert.equal(url.searchParams.get('spacing'), 'time');
        const [from, to] = url.searchParams.get('zoom')!.split('/');
        assert.ok(Date.parse(from) < Date.parse(to));
        await page.locator('[data-testid="zoom-reset"]:enabled').waitFor();
        const zoomed = await xsOf();
        assert.deepEqual(
          zoomed.map((e) => e.type),
          doorTypes,
          `${width}: the door window shows the door and its resume`,
        );
        for (let k = 1; k < zoomed.length; k++)
          assert.ok(zoomed[k].x - zoomed[k - 1].x >= 15, `${width}: events ${k - 1},${k} ${zoomed[k].x - zoomed[k - 1].x} px apart`);
        const names = await page.locator('[data-testid="timeline-svg"] text.ev-label').allTextContents();
        assert.deepEqual(names, ['upgrade.accepted', 'dropped', 'resume.requested', 'resume.accepted'], `${width}: each with its own name`);
        assert.equal(await page.locator('[data-testid="timeline-chip"]').count(), 0);
        assertNoOverlap(`${width} px, door`, await chartBoxes(page));
        const status = await page.locator('[data-testid="zoom-status"]').innerText();
        assert.match(status, /4 of 36 events/);
        await page.screenshot({ path: shot(`timeline-long-${width}-door`), fullPage: false });

        // A link reproduces the view.
        const link = page.url();
        const other = await context.newPage();
        await other.goto(link);
        await other.locator('[data-testid="zoom-reset"]:enabled').waitFor();
        assert.equal(await other.locator('[data-testid="zoom-status"]').innerText(), status);
        assert.equal(await other.locator('[data-testid="spacing-select"]').inputValue(), 'time');
        await other.close();

        // Zoom out: a wider window, still in the URL.
        await page.click('[data-testid="zoom-out"]');
        await page.waitForURL((u) => u.toString() !== link && u.searchParams.has('zoom'));
        const wider = new URL(page.url()).searchParams.get('zoom')!.split('/');
        assert.ok(Date.parse(wider[1]) - Date.parse(wider[0]) > Date.parse(to) - Date.parse(from));
        // Reset: the whole session, no zoom in the URL, spacing kept.
        await page.click('[data-testid="zoom-reset"]');
        await page.waitForURL((u) => !u.searchParams.has('zoom'));
        // The URL changes before React commits the render it causes: wait for the rendered state
        // (the reset button disables in the same render that draws every event) before counting.
        await page.locator('[data-testid="zoom-reset"]:disabled').waitFor();
        assert.equal(new URL(page.url()).searchParams.get('spacing'), 'time');
        assert.equal(await page.locator('[data-testid="timeline-event"]').count(), 36);

        // Brush: drag across the middle of the plot.
        const svg = (await page.locator('[data-testid="timeline-svg"]').boundingBox())!;
        await page.mouse.move(svg.x + svg.width * 0.3, svg.y + 200);
        await page.mouse.down();
        await page.mouse.move(svg.x + svg.width * 0.5, svg.y + 200, { steps: 5 });
        await page.mouse.up();
        await page.waitForURL((u) => u.searchParams.has('zoom'));
        await page.locator('[data-testid="zoom-reset"]:enabled').waitFor();
        const shownAfterBrush = await page.locator('[data-testid="timeline-event"]').count();
        assert.ok(shownAfterBrush < 36, `${width}: the brush kept ${shownAfterBrush} events`);
        // Back undoes it (the zoom is history, as a link is).
        await page.goBack();
        await page.waitForURL((u) => !u.searchParams.has('zoom'));
        await page.locator('[data-testid="zoom-reset"]:disabled').waitFor();
      } finally {
        await context.close();
      }
    }
  });

  test('a link with a zoom that cannot be read says so and offers the whole session', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    try {
      const page = await signedIn(context, app.url, consoleErrors);
      await page.goto(sessionUrl(LONG, '?zoom=banana&spacing=even'));
      const notice = page.locator('[data-testid="timeline-url-problem"]');
      await notice.waitFor();
      const text = await notice.innerText();
      assert.match(text, /zoom "banana"/);
      assert.match(text, /spacing "even"/);
      assert.equal(await page.locator('[data-testid="timeline-event"]').count(), 36);
      await notice.locator('button').click();
      await page.waitForURL((u) => !u.searchParams.has('zoom') && !u.searchParams.has('spacing'));
      await notice.waitFor({ state: 'detached' });
      // A zoom outside the session.
      await page.goto(sessionUrl(LONG, '?zoom=2020-01-01T00:00:00.000Z/2020-01-01T00:01:00.000Z'));
      await page.locator('[data-testid="zoom-outside"]').waitFor();
      assert.equal(await page.locator('[data-testid="timeline-event"]').count(), 36);
    } finally {
      await context.close();
    }
  });

  test('only the naive answer is red; the door carries the table number; +Δ says which is cumulative and which a gap', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    try {
      const page = await signedIn(context, app.url, consoleErrors);
      await page.goto(sessionUrl(LONG, '?spacing=sequence'));
      await page.locator('[data-testid="timeline-svg"][data-spacing="sequence"][data-ready]').waitFor();
      // Eleven resume.accepted, ten ordinary before the door: one red, in the table and on the chart.
      assert.equal(await page.locator('[data-testid="event-row"][data-type="resume.accepted"]').count(), 11);
      assert.deepEqual(await page.locator('[data-testid="event-row"] .chip.bad').allInnerTexts(), ['resume.accepted']);
      assert.equal(await page.locator('[data-testid="event-row"]').nth(34).locator('.chip.bad').count(), 1);
      const tones = await page
        .locator('[data-testid="timeline-svg"] circle.ev-dot')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-tone')));
      assert.deepEqual(
        tones.flatMap((t, i) => (t === 'naive' ? [i + 1] : [])),
        [35],
      );
      const naiveFill = await page.locator('circle.ev-dot[data-tone="naive"]').getAttribute('fill');
      const others = await page
        .locator('[data-testid="timeline-event"][data-type="resume.accepted"] circle:not([data-tone="naive"])')
        .evaluateAll((els) => els.map((e) => e.getAttribute('fill')));
      assert.equal(others.length, 10);
      assert.ok(
        others.every((f) => f !== naiveFill),
        'ordinary resumes are not drawn red',
      );

      // One numbering: the door's note names the table's # and its SSE id, and the table says both.
      const note = await page.locator('[data-testid="timeline-svg"] [data-testid="timeline-label"]', { hasText: 'the door' }).textContent();
      const m = /the door · #(\d+) · SSE id 40/.exec(note ?? '');
      assert.ok(m, note ?? '');
      assert.equal(m[1], '32');
      const doorRow = page.locator('[data-testid="event-row"]').filter({ hasText: 'the door' });
      assert.equal((await doorRow.locator('td').first().innerText()).trim(), '32');
      assert.match(await doorRow.innerText(), /SSE id 40/);
      assert.equal(await page.locator('[data-testid="timeline-event"][data-num="32"]').getAttribute('data-type'), 'upgrade.accepted');
      // Which +Δ is which.
      assert.match(await page.locator('[data-testid="event-table"] th', { hasText: '+Δ' }).innerText(), /since first/i);
      assert.match(await page.locator('[data-testid="timeline-caption"]').innerText(), /\+Δ between two events is the gap.*cumulative/);
      assert.ok((await page.locator('[data-testid="timeline-gap"]').count()) > 0);
    } finally {
      await context.close();
    }
  });

  test('a naive resume without Last-Event-ID: the lanes and the alarm both say SSE, the server holding the upgrade', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    try {
      const page = await signedIn(context, app.url, consoleErrors);
      await page.goto(sessionUrl(NO_CURSOR));
      await page.locator('[data-testid="timeline-svg"][data-ready]').waitFor();
      const shape = await page.locator('[data-testid="deadlock-shape"]').innerText();
      assert.match(shape, /without Last-Event-ID/);
      assert.match(shape, /Both ends are on SSE/);
      assert.match(shape, /still holds the pending upgrade/);
      assert.doesNotMatch(shape, /waiting for a handshake/);
      // The lanes after the answer: both SSE.
      const titles = await page.locator('[data-testid="timeline-svg"] rect title').allTextContents();
      assert.ok(titles.includes('client: SSE side after resume.accepted'), titles.join(' | '));
      assert.ok(titles.includes('server: SSE side after resume.accepted'), titles.join(' | '));
      const rows = page.locator('[data-testid="event-row"]');
      assert.match(await rows.nth(4).innerText(), /resume\.accepted[\s\S]*SSE side[\s\S]*SSE side/);
      // With a cursor at the door, the other shape: the client waits on the WebSocket side.
      await page.goto(sessionUrl(TOKENS.ongoing));
      await page.locator('[data-testid="timeline-svg"][data-ready]').waitFor();
      assert.match(await page.locator('[data-testid="deadlock-shape"]').innerText(), /waiting for a handshake/);
      const titles2 = await page.locator('[data-testid="timeline-svg"] rect title').allTextContents();
      assert.ok(titles2.includes('client: WebSocket side after resume.accepted'), titles2.join(' | '));
    } finally {
      await context.close();
    }
  });

  test('screenshots: a long and a short session at every width, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const)
      for (const width of WIDTHS) {
        const context = await browser.newContext({ viewport: { width, height: 1000 }, colorScheme: scheme, timezoneId: 'UTC' });
        try {
          const page = await signedIn(context, app.url, consoleErrors);
          for (const [name, token] of [
            ['long', LONG],
            ['short', TOKENS.deadlock],
          ]) {
            await page.goto(sessionUrl(token));
            await page.locator('[data-testid="timeline-svg"][data-ready]').waitFor();
            assertNoOverlap(`${scheme} ${width} ${name}`, await chartBoxes(page));
            // The timeline panel itself (below the fold on a phone), and the page as it opens.
            await page.locator('section[aria-labelledby="h-timeline"]').screenshot({ path: shot(`timeline-${name}-${width}-${scheme}`) });
            await page.screenshot({ path: shot(`timeline-${name}-${width}-${scheme}-page`), fullPage: false });
          }
        } finally {
          await context.close();
        }
      }
    assert.deepEqual(consoleErrors, []);
  });
});
