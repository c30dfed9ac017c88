// Door probes in the browser: the Servers page shows a server's probe target, "Run probe now"
// runs it against a naive reference server over loopback, and the evidence (per-step findings,
// the verdict text, a transcript) appears.
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
let page: Page;
const consoleErrors: string[] = [];

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${app.url}${path}`, { ...init, headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` } });

describe('door probes on the Servers page', () => {
  before(async () => {
    [app, browser, sim] = await Promise.all([
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
    assert.match(await panel.locator('[data-testid="probe-step-reset_at_door"]').innerText(), /fail · deadlock/);
    assert.match(await panel.locator('[data-testid="probe-step-reconnect_without_cursor"]').innerText(), /fail · dual_negotiation/);
    assert.match(await panel.locator('[data-testid="probe-step-healthy"]').innerText(), /pass · upgraded/);
    assert.equal(await panel.locator('[data-testid="probe-run-fail"]').count(), 1);

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
});
