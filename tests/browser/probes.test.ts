// Door probes in the browser: the Servers page shows a server's probe target, "Run probe now"
// runs it against a naive reference server over loopback, and the evidence (per-step findings in
// plain words, the verdict text, a transcript) appears; an admin adds, edits, pauses, runs and
// removes a target against a refusing reference server, the credential never shown; a viewer
// sees the targets without any control. Screenshots at 1440 and 390 px, light and dark.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { Ledger } from '@/scripts/sim/ledger';
import { startSimServer, type SimServer } from '@/scripts/sim/server';
import { ADMIN_TOKEN, launch, shot } from './fixtures';

let app: AppServer;
let browser: Browser;
let sim: SimServer;
let refusing: SimServer;
let page: Page;
const consoleErrors: string[] = [];

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${app.url}${path}`, { ...init, headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` } });

describe('door probes on the Servers page', () => {
  before(async () => {
    [app, browser, sim, refusing] = await Promise.all([
      startAppServer(),
      launch(),
      startSimServer({
        name: 'browser-naive',
        mode: 'naive',
        reporter: null,
        ledger: new Ledger(),
        upgradeAfterMs: () => 30,
        messageIntervalMs: 10,
      }),
      startSimServer({
        name: 'browser-refusing',
        mode: 'refusing',
        reporter: null,
        ledger: new Ledger(),
        upgradeAfterMs: () => 30,
        messageIntervalMs: 10,
      }),
    ]);
    assert.equal((await api('/api/v1/admin/servers', { method: 'POST', body: JSON.stringify({ name: 'door-naive' }) })).status, 201);
    const set = await api('/api/v1/admin/servers/door-naive/probe', {
      method: 'PUT',
      body: JSON.stringify({ url: `${sim.url}/mcp`, enabled: false, credential: { header: 'X-Probe-Key', value: 'browser-secret-81f3' } }),
    });
    assert.equal(set.status, 200);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    page = await context.newPage();
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
  });

  after(async () => {
    await browser?.close();
    await sim?.close();
    await refusing?.close();
    await app?.stop();
  });

  test('"Run probe now" shows the per-step evidence and the verdict says it came from the probe', async () => {
    await page.goto(`${app.url}/login?next=/servers`);
    await page.fill('[data-testid="login-token"]', ADMIN_TOKEN);
    await page.click('[data-testid="login-submit"]');
    await page.waitForURL(/\/servers/);
    const panel = page.locator('[data-testid="probe-panel-door-naive"]');
    await panel.waitFor();
    const target = await panel.locator('[data-testid="probe-target"]').innerText();
    assert.match(target, /X-Probe-Key: set/);
    assert.ok(!target.includes('browser-secret-81f3'));
    assert.match(await panel.innerText(), /No run yet/);

    await panel.locator('[data-testid="probe-run-now"]').click();
    await panel.locator('[data-testid="probe-run-detail"]').waitFor();
    assert.match(await panel.locator('[data-testid="probe-step-reset_at_door"]').innerText(), /Resume at the door[\s\S]*fail · deadlock/);
    assert.match(
      await panel.locator('[data-testid="probe-step-reconnect_without_cursor"]').innerText(),
      /Reconnect without cursor[\s\S]*fail · dual negotiation/,
    );
    assert.match(await panel.locator('[data-testid="probe-step-healthy"]').innerText(), /Plain upgrade[\s\S]*pass · upgraded/);
    // Plain words, no codes: the step names and findings are in the cells' titles only.
    const steps = await panel.locator('[data-testid="probe-steps"]').innerText();
    for (const code of ['reconnect_without_cursor', 'reset_at_door', 'dual_negotiation', 'probe_error', 'idle_stream'])
      assert.ok(!steps.includes(code), `no "${code}" in the steps`);
    // One run: no strip (a lone bar compared nothing). A second run draws both, newest selected.
    assert.equal(await panel.locator('[data-testid="probe-strip"]').count(), 0);
    assert.match(await panel.locator('[data-testid="probe-run-total"]').innerText(), /^1 run$/);
    await panel.locator('[data-testid="probe-run-now"]').click();
    await panel.locator('[data-testid="probe-run-fail"]').nth(1).waitFor();
    assert.equal(await panel.locator('[data-testid="probe-strip"] [data-testid="probe-run-fail"]').count(), 2);
    assert.match(await panel.locator('[data-testid="probe-run-total"]').innerText(), /^2 runs$/);

    const row = page.locator('[data-testid="server-row-door-naive"]');
    await row.locator('[data-testid="verdict-text"]', { hasText: 'resumes naively — probe at' }).waitFor();
    assert.equal(await row.locator('[data-testid="verdict-naive"]').count(), 1);

    await panel.locator('[data-testid="probe-step-reset_at_door"] summary').click();
    const transcript = await panel.locator('[data-testid="probe-step-reset_at_door"] [data-testid="probe-transcript"]').innerText();
    assert.match(transcript, /Last-Event-ID/i);
    assert.ok(!transcript.includes('browser-secret-81f3'), 'the credential is redacted');
    await page.screenshot({ path: shot('20-servers-probe'), fullPage: true });
    assert.deepEqual(consoleErrors, []);
  });
  test('an admin adds, edits, pauses, runs and removes a probe target; the credential is write-only', async () => {
    assert.equal((await api('/api/v1/admin/servers', { method: 'POST', body: JSON.stringify({ name: 'door-ui' }) })).status, 201);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${app.url}/servers`);
    await page.locator('[data-testid="probe-add-open"]').click();
    const form = page.locator('[data-testid="probe-add-form"]');
    await form.locator('[data-testid="probe-form-server"]').selectOption('door-ui');

    // A refused address: the API's own sentence and its code, nothing stored.
    await form.locator('[data-testid="probe-form-url"]').fill('http://169.254.169.254/mcp');
    await form.locator('[data-testid="probe-form-save"]').click();
    const error = await form.locator('[data-testid="probe-form-error"]').innerText();
    assert.match(error, /Not saved: .*169\.254\.169\.254.*DOORWATCH_PROBE_ALLOW/);
    assert.match(error, /\(probe_target_forbidden\)/);
    await page.locator('[data-testid="probe-add"]').screenshot({ path: shot('20-servers-probe-add-error-1440-light') });
    assert.equal((await (await api('/api/v1/servers/door-ui/probes')).json()).target, null);

    await form.locator('[data-testid="probe-form-url"]').fill(`${refusing.url}/mcp`);
    await form.locator('[data-testid="probe-form-header"]').fill('X-Probe-Key');
    await form.locator('[data-testid="probe-form-value"]').fill('ui-secret-6d02');
    await form.locator('[data-testid="probe-form-save"]').click();
    await form.waitFor({ state: 'detached' });
    const panel = page.locator('[data-testid="probe-panel-door-ui"]');
    const target = panel.locator('[data-testid="probe-target"]');
    await target.filter({ hasText: 'X-Probe-Key: set' }).waitFor();
    assert.match(await target.innerText(), /every 5 min · steps give up after 20 s/);
    assert.ok(!(await page.content()).includes('ui-secret-6d02'), 'the credential is never on the page');

    // Edit: the stored credential is kept (not shown, not re-entered) while the interval changes.
    await panel.locator('[data-testid="probe-edit"]').click();
    const edit = panel.locator('[data-testid="probe-edit-form"]');
    assert.match(
      await edit.locator('[data-testid="probe-form-credential-stored"]').innerText(),
      /X-Probe-Key: set \(stored, never shown\)/,
    );
    assert.equal(await edit.locator('[data-testid="probe-form-value"]').count(), 0);
    await edit.locator('[data-testid="probe-form-interval"]').fill('600');
    await edit.locator('[data-testid="probe-form-step-timeout"]').fill('30');
    await edit.locator('[data-testid="probe-form-save"]').click();
    await edit.waitFor({ state: 'detached' });
    await target.filter({ hasText: 'every 10 min' }).waitFor();
    let stored = (await (await api('/api/v1/servers/door-ui/probes')).json()).target;
    assert.deepEqual(
      [stored.intervalSeconds, stored.stepTimeoutSeconds, stored.credentialHeader, stored.credentialSet],
      [600, 30, 'X-Probe-Key', true],
    );

    // Replace credential: a new header and value, the old value never shown.
    await panel.locator('[data-testid="probe-edit"]').click();
    await edit.locator('[data-testid="probe-form-replace-credential"]').click();
    assert.equal(await edit.locator('[data-testid="probe-form-header"]').inputValue(), 'X-Probe-Key');
    assert.equal(await edit.locator('[data-testid="probe-form-value"]').inputValue(), '');
    await edit.locator('[data-testid="probe-form-header"]').fill('X-Other-Key');
    await edit.locator('[data-testid="probe-form-value"]').fill('ui-secret-2-91aa');
    await edit.locator('[data-testid="probe-form-save"]').click();
    await target.filter({ hasText: 'X-Other-Key: set' }).waitFor();
    stored = (await (await api('/api/v1/servers/door-ui/probes')).json()).target;
    assert.deepEqual([stored.credentialHeader, stored.credentialSet], ['X-Other-Key', true]);

    // Pause: the schedule skips it (tests/integration/probes.test.ts); the credential stays.
    await panel.locator('[data-testid="probe-pause"]').click();
    await panel.locator('[data-testid="probe-paused"]').waitFor();
    assert.equal(await panel.locator('[data-testid="probe-pause"]').innerText(), 'Resume schedule');
    stored = (await (await api('/api/v1/servers/door-ui/probes')).json()).target;
    assert.deepEqual(
      [stored.enabled, stored.stepTimeoutSeconds, stored.credentialHeader, stored.credentialSet],
      [false, 30, 'X-Other-Key', true],
    );

    // Run now still runs a paused target, by hand.
    await panel.locator('[data-testid="probe-run-now"]').click();
    const detail = panel.locator('[data-testid="probe-run-detail"]');
    await detail.filter({ hasText: 'run by hand' }).waitFor();
    assert.match(await detail.locator('[data-testid="probe-step-reset_at_door"]').innerText(), /pass · refused correctly/);
    assert.match(await detail.locator('[data-testid="probe-step-cursor_before_door"]').innerText(), /pass · resumed correctly/);
    await panel.locator('[data-testid="probe-paused"]').waitFor();
    assert.deepEqual(consoleErrors, []);
  });

  test('the steps table: headers over their cells at 1440, cards with nothing clipped at 390, in both themes', async () => {
    const panel = page.locator('[data-testid="probe-panel-door-ui"]');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1440, height: 900 });
      await panel.scrollIntoViewIfNeeded();
      const misaligned = await panel.locator('[data-testid="probe-steps"]').evaluate((table) => {
        const ths = [...table.querySelectorAll('thead th')];
        const tds = [...table.querySelectorAll('tbody tr:first-child td')];
        return ths.flatMap((th, i) => {
          const td = tds[i];
          const [a, b] = [th.getBoundingClientRect(), td.getBoundingClientRect()];
          const [sa, sb] = [getComputedStyle(th).textAlign, getComputedStyle(td).textAlign];
          return Math.abs(a.left - b.left) > 1 || Math.abs(a.right - b.right) > 1 || sa !== sb ? [`${th.textContent}: ${sa}/${sb}`] : [];
        });
      });
      assert.deepEqual(misaligned, [], `${scheme}: each header sits over its cells, aligned like them`);
      await panel.screenshot({ path: shot(`20-servers-probe-steps-1440-${scheme}`) });

      await page.setViewportSize({ width: 390, height: 844 });
      // The edit form is open so that it is checked too.
      await panel.locator('[data-testid="probe-edit"]').click();
      await panel.locator('[data-testid="probe-form-replace-credential"]').click();
      await panel.scrollIntoViewIfNeeded();
      const clipped = await panel.evaluate((root) => {
        const box = root.getBoundingClientRect();
        const out: string[] = [];
        if (document.documentElement.scrollWidth > window.innerWidth)
          out.push(`page scrolls sideways (${document.documentElement.scrollWidth})`);
        for (const el of [root, ...root.querySelectorAll('*')]) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          if (r.left < box.left - 1 || r.right > box.right + 1)
            out.push(`${el.tagName}.${el.className}: ${Math.round(r.left)}–${Math.round(r.right)}`);
          if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
            out.push(`${el.tagName}.${el.className} scrolls (${el.scrollWidth} > ${el.clientWidth})`);
        }
        return out.slice(0, 10);
      });
      assert.deepEqual(clipped, [], `${scheme}: the probe panel fits 390 px`);
      // Each step is a card whose cells carry their labels (pseudo-elements: not in innerText).
      const labels = await panel
        .locator('[data-testid="probe-step-reset_at_door"] td')
        .evaluateAll((tds) => tds.map((td) => getComputedStyle(td, '::before').content.replace(/"/g, '')));
      assert.deepEqual(labels, ['Step', 'Expected', 'Observed', 'Result', 'Latency', 'Sessions', 'Why']);
      assert.match(
        await panel.locator('[data-testid="probe-step-reset_at_door"]').innerText(),
        /Resume at the door[\s\S]*pass · refused correctly/,
      );
      await panel.screenshot({ path: shot(`20-servers-probe-390-${scheme}`) });
      await panel.getByRole('button', { name: 'Cancel' }).click();
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0)); // the sticky top bar stays on top in a full-page shot
    await page.screenshot({ path: shot('20-servers-probe-1440-light'), fullPage: true });
  });

  test('removing the target keeps its runs; a viewer sees targets and runs without any control', async () => {
    const panel = page.locator('[data-testid="probe-panel-door-ui"]');
    page.once('dialog', (d) => void d.accept());
    await panel.locator('[data-testid="probe-remove"] button').click();
    await panel.filter({ hasText: 'no target (history only)' }).waitFor();
    assert.equal((await (await api('/api/v1/servers/door-ui/probes')).json()).target, null);
    assert.equal(await panel.locator('[data-testid="probe-run-now"]').count(), 0);

    const made = await api('/api/v1/operators', { method: 'POST', body: JSON.stringify({ name: 'probe-viewer', role: 'viewer' }) });
    assert.equal(made.status, 201);
    const { token } = (await made.json()) as { token: string };
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark', timezoneId: 'UTC' });
    try {
      const viewer = await context.newPage();
      await viewer.goto(`${app.url}/login?next=/servers`);
      await viewer.fill('[data-testid="login-token"]', token);
      await viewer.click('[data-testid="login-submit"]');
      await viewer.waitForURL(/\/servers/);
      const naive = viewer.locator('[data-testid="probe-panel-door-naive"]');
      await naive.locator('[data-testid="probe-run-detail"]').waitFor();
      await viewer.waitForLoadState('networkidle'); // who we are (/api/auth/me) is known
      assert.match(await naive.locator('[data-testid="probe-target"]').innerText(), /X-Probe-Key: set/);
      for (const control of [
        'probe-add',
        'probe-add-open',
        'probe-run-now',
        'probe-edit',
        'probe-pause',
        'probe-remove',
        'probe-edit-form',
      ])
        assert.equal(await viewer.locator(`[data-testid="${control}"]`).count(), 0, `a viewer has no ${control}`);
      await viewer.screenshot({ path: shot('20-servers-probe-viewer-1440-dark'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
