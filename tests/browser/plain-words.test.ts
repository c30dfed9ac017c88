// Plain words (issue 27): the theme toggle, the loading light, the alarm count and the jargon a newcomer
// meets first each read in plain words with a one-line tip on hover and on keyboard focus, and state
// chips keep their spaces. Contrast, control names and run-together words on every page at every width
// are page-sweep.ts' (pages-light, pages-dark).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { AppServer } from '../support/app-server';
import { signedIn } from '../support/signed-in';
import { SERVERS, shot } from './fixtures';
import { startPopulatedApp, type PopulatedApp } from './populated-app';

let app: AppServer;
let browser: Browser;
let populated: PopulatedApp | undefined;

describe('plain words', () => {
  before(async () => {
    populated = await startPopulatedApp();
    ({ app, browser } = populated);
  });

  after(async () => {
    await populated?.close();
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
