// Issue 24: annotations and first-reported versions are drawn as markers on the overview's charts
// and on a session's timeline; an admin adds a note from the overview's form; hostile texts are
// shown as text, never run.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createReporter } from '@doorwatch/reporter';
import { startAppServer, TEST_ADMIN_TOKEN, type AppServer } from '../support/app-server';
import { call } from '../support/http';
import { signedIn } from '../support/signed-in';
import { SERVERS, launch, serversEnv, shot } from './fixtures';

const HOSTILE = '<img src=x onerror="window.__pwned=(window.__pwned||0)+1">';

let app: AppServer;
let browser: Browser;
let page: Page;
const errors: string[] = [];

before(async () => {
  [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
  // One base for every instant: the deploy note below must fall inside mk-long's 4 s however long the
  // reporter's flush takes (a moving Date.now() put it after the session under load).
  const base = Date.now() - 20 * 60_000;
  const at = (ms: number) => new Date(base + ms).toISOString();
  const good = SERVERS.good;
  const reporter = createReporter({ url: app.url, server: good.name, secret: good.secret, version: 'v7.1.0', instance: 'pod-a' });
  reporter.report({ id: 'mk-1', token: 'mk-tok', type: 'session.opened', at: at(0), data: {} });
  reporter.report({ id: 'mk-2', token: 'mk-tok', type: 'session.closed', at: at(1000), data: {} });
  reporter.report({ id: 'mk-3', token: 'mk-long', type: 'session.opened', at: at(900_000), data: {} });
  reporter.report({ id: 'mk-4', token: 'mk-long', type: 'stream.dropped', at: at(902_000), data: {} });
  reporter.report({ id: 'mk-5', token: 'mk-long', type: 'session.closed', at: at(904_000), data: {} });
  await reporter.close();
  const posted = await call(app.url, '/api/v1/annotations', {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    body: { time: Date.now() - 10 * 60_000, text: HOSTILE, tags: ['deploy'] },
  });
  assert.equal(posted.status, 201, posted.text);
  // A deploy note in the middle of mk-long (after the one above, which the first test finds first), for its server only.
  const during = await call(app.url, '/api/v1/annotations', {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    body: { time: Date.parse(at(901_000)), text: `deploy ${HOSTILE}`, tags: ['deploy'], server: good.name },
  });
  assert.equal(during.status, 201, during.text);
  page = await signedIn(await browser.newContext({ viewport: { width: 1366, height: 900 } }), app.url, errors);
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

test('the overview chart draws the annotation and the first-reported version as markers, escaped', async () => {
  await page.goto(`${app.url}/?from=now-1h&to=now`);
  const chart = page.locator('[data-testid="chart-boundary"]');
  await chart.locator('[data-testid="chart-marker"][data-marker-kind="version"]').first().waitFor();
  const annotation = chart.locator('[data-testid="chart-marker"][data-marker-kind="annotation"]').first();
  await annotation.waitFor();
  assert.equal(await annotation.locator('title').textContent(), `${HOSTILE} [deploy]`);
  assert.equal(await chart.locator('img').count(), 0, 'the hostile text must not become an element');
  const versionTitle = await chart.locator('[data-testid="chart-marker"][data-marker-kind="version"] title').first().textContent();
  assert.equal(versionTitle, `${SERVERS.good.name} first reported v7.1.0`);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? 0), 0);
});

test('an admin adds a note from the overview and it is drawn on the charts', async () => {
  const form = page.locator('[data-testid="annotation-form"]');
  await form.locator('input[aria-label="Note"]').fill('rolled back to v7.0.9');
  await form.locator('input[aria-label="Tags"]').fill('rollback, v7.0.9');
  await form.locator('button[type="submit"]').click();
  const marker = page.locator('[data-testid="chart-boundary"] [data-testid="chart-marker"][data-marker-kind="annotation"] title', {
    hasText: 'rolled back to v7.0.9',
  });
  await marker.first().waitFor({ state: 'attached' }); // a <title> is never visible itself
  assert.equal(await marker.first().textContent(), 'rolled back to v7.0.9 [rollback, v7.0.9]');
  const listed = await call(app.url, '/api/v1/annotations?from=now-1h&tags=rollback', { token: TEST_ADMIN_TOKEN });
  assert.deepEqual(
    listed.body.annotations.map((a: { text: string; createdBy: string }) => a.text),
    ['rolled back to v7.0.9'],
  );
  assert.deepEqual(errors, []);
});

test("a session's timeline draws the deploy during it and the version it first reported, escaped", async () => {
  const good = SERVERS.good.name;
  await page.goto(`${app.url}/servers/${good}/sessions/mk-long`);
  const marker = page.locator('[data-testid="timeline-svg"] [data-testid="timeline-marker"][data-marker-kind="annotation"]');
  await marker.waitFor();
  assert.equal(await marker.locator('title').textContent(), `deploy ${HOSTILE} [deploy] — ${good}`);
  assert.equal(
    await page.locator('[data-testid="timeline-svg"] [data-testid="timeline-marker"]').count(),
    1,
    'only what falls in the session',
  );
  // Between its events: right of "opened", left of "closed".
  const box = (await marker.locator('line').boundingBox())!;
  const svg = (await page.locator('[data-testid="timeline-svg"]').boundingBox())!;
  assert.ok(box.x > svg.x + svg.width * 0.1 && box.x < svg.x + svg.width * 0.9, `marker at ${box.x} in ${svg.x}..${svg.x + svg.width}`);

  await page.goto(`${app.url}/servers/${good}/sessions/mk-tok`);
  const version = page.locator('[data-testid="timeline-svg"] [data-testid="timeline-marker"][data-marker-kind="version"]');
  await version.waitFor();
  assert.equal(await version.locator('title').textContent(), `${good} first reported v7.1.0`);
  assert.equal(await page.locator('[data-testid="timeline-svg"] img').count(), 0);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? 0), 0);
  await page.screenshot({ path: shot('65-session-markers-1366'), fullPage: true });
  assert.deepEqual(errors, []);
});
