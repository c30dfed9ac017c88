// The Audit page in a real browser (issue 28): an admin's changes made through the API (an operator
// token, a contact point whose URL carries a secret, an alert rule created and changed, a door probe
// with a credential and a secret in its URL, a webhook secret rotated) are listed newest first with
// who, what, the action and the fields before and after, secrets redacted; the entity filter writes
// the URL and a reload restores it; "Load more" appends older entries; the export links download the
// filter's window; a viewer is refused. Layout and readability checks (layout-checks.ts,
// readability-checks.ts) at 1920, 1440, 1280 and 390 px, light and dark.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { signedIn } from '../support/signed-in';
import { ADMIN_TOKEN, SERVERS, launch, serversEnv, shot } from './fixtures';
import { culpritsPast, settledLayoutProblems, topBarRows } from './layout-checks';
import { readabilityProblems } from './readability-checks';

const URL_SECRET = 'PLANTEDpathSecret5b2e';
const PROBE_CREDENTIAL = 'Bearer PLANTED-probe-credential-3c9d';
const QUERY_SECRET = 'PLANTEDquerySecret81f0';
const ADMIN_NAME = 'bootstrap admin';

let app: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];
/** Every secret the API handed out while making the changes: none may reach the page. */
const secrets: string[] = [URL_SECRET, PROBE_CREDENTIAL, 'PLANTED-probe-credential-3c9d', QUERY_SECRET];
let viewerToken = '';
let ruleId = '';

async function api(path: string, method = 'GET', body?: unknown, token = ADMIN_TOKEN) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

async function ok(path: string, method: string, body: unknown, status: number) {
  const res = await api(path, method, body);
  assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
  return res.json();
}

before(async () => {
  [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
  const viewer = await ok('/api/v1/operators', 'POST', { name: 'vera viewer', role: 'viewer' }, 201);
  viewerToken = viewer.token;
  secrets.push(viewerToken);
  const cp = await ok('/api/v1/alerts/contact-points', 'POST', { name: 'pager', url: `https://hooks.example.test/T0/${URL_SECRET}` }, 201);
  secrets.push(cp.secret);
  const rule = {
    name: 'naive resumes',
    measure: 'naive_resumes',
    comparison: 'gt',
    threshold: 0,
    windowSeconds: 300,
    forSeconds: 0,
    contactPointIds: [cp.contactPoint.id],
  };
  ruleId = (await ok('/api/v1/alerts/rules', 'POST', rule, 201)).rule.id;
  await ok(`/api/v1/alerts/rules/${ruleId}`, 'PATCH', { threshold: 3 }, 200);
  const probe = {
    url: `http://127.0.0.1:9/mcp?key=${QUERY_SECRET}`,
    credential: { header: 'Authorization', value: PROBE_CREDENTIAL },
    intervalSeconds: 3600,
  };
  await ok(`/api/v1/admin/servers/${SERVERS.naive.name}/probe`, 'PUT', probe, 200);
  secrets.push((await ok(`/api/v1/admin/servers/${SERVERS.good.name}/rotate`, 'POST', { graceSeconds: 60 }, 200)).secret);
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
  page = await signedIn(context, app.url, errors);
});

after(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

const rows = () => page.locator('[data-testid="audit-row"]');
const noSecretOnPage = async () => {
  const html = await page.content();
  for (const s of secrets) assert.ok(!html.includes(s), `a secret reached the page: ${s.slice(0, 12)}…`);
};

test('the entries, newest first: when, who, what, the action and the fields before and after, secrets redacted', async () => {
  await page.getByRole('link', { name: 'Audit', exact: true }).click();
  await page.waitForURL((u) => u.pathname === '/audit');
  await page.goto(`${app.url}/audit?from=now-1h&to=now`);
  await rows().first().waitFor();
  const api1 = (await ok('/api/v1/audit?from=now-1h&to=now', 'GET', undefined, 200)).entries as { at: string; entityType: string }[];
  assert.equal(await rows().count(), api1.length);
  // Newest first, each time absolute in the page's zone (UTC here) as the API has it.
  const times = await page.locator('[data-testid="audit-at"]').allInnerTexts();
  assert.deepEqual(
    times,
    api1.map((e) => e.at.slice(0, 19).replace('T', ' ')),
  );
  assert.deepEqual([...times].sort().reverse(), times);
  assert.equal(await rows().first().getAttribute('data-entity-type'), 'server_secret');

  const update = page.locator('[data-testid="audit-row"][data-entity-type="alert_rule"][data-action="update"]');
  assert.equal(await update.locator('[data-testid="audit-actor"]').innerText(), ADMIN_NAME);
  assert.match(await update.locator('[data-testid="audit-what"]').innerText(), /alert rule\s+naive resumes/);
  const threshold = update.locator('[data-testid="audit-diff-line"][data-path="threshold"]');
  assert.equal(await threshold.getAttribute('data-change'), 'changed');
  assert.equal(await threshold.locator('[data-testid="audit-before"]').innerText(), '0');
  assert.equal(await threshold.locator('[data-testid="audit-after"]').innerText(), '3');

  // Secrets as the API redacted them: the probe URL's query value, the contact point's URL (its path
  // carries one); the probe's credential only as "set".
  const probe = page.locator('[data-testid="audit-row"][data-entity-type="probe_target"]');
  assert.match((await probe.locator('[data-testid="audit-diff-line"][data-path="url"]').textContent()) ?? '', /\/mcp\?key=%5Bredacted%5D/);
  assert.equal(
    await probe.locator('[data-testid="audit-diff-line"][data-path="credentialSet"] [data-testid="audit-after"]').textContent(),
    'true',
  );
  const cp = page.locator('[data-testid="audit-row"][data-entity-type="contact_point"]');
  assert.match(
    await cp.locator('[data-testid="audit-diff-line"][data-path="url"]').innerText(),
    /https:\/\/hooks\.example\.test\/… \(sha256 /,
  );
  await noSecretOnPage();
  await page.screenshot({ path: shot('audit-1440-light'), fullPage: true });
});

test('the entity filter writes the URL, a reload restores it, and the export links download that filter over the window shown', async () => {
  await page.selectOption('[data-testid="audit-entity-type"]', 'alert_rule');
  await page.waitForURL((u) => u.searchParams.get('entityType') === 'alert_rule');
  await page.locator('[data-testid="audit-row"]:not([data-entity-type="alert_rule"])').first().waitFor({ state: 'detached' });
  const actions = async () =>
    rows().evaluateAll((els) => els.map((e) => `${e.getAttribute('data-entity-type')}:${e.getAttribute('data-action')}`));
  assert.deepEqual(await actions(), ['alert_rule:update', 'alert_rule:create']);
  await page.reload();
  assert.equal(await page.locator('[data-testid="audit-entity-type"]').inputValue(), 'alert_rule');
  assert.deepEqual(await actions(), ['alert_rule:update', 'alert_rule:create']);

  const csvHref = (await page.locator('[data-testid="export-csv"]').getAttribute('href'))!;
  const csvUrl = new URL(csvHref, app.url);
  assert.equal(csvUrl.searchParams.get('entityType'), 'alert_rule');
  for (const edge of ['from', 'to']) assert.match(csvUrl.searchParams.get(edge)!, /^\d{4}-\d\d-\d\dT/, `${edge} is an absolute instant`);
  const csv = await page.request.get(csvUrl.toString());
  assert.equal(csv.status(), 200);
  const lines = (await csv.text()).trim().split('\r\n');
  assert.equal(lines.length, 3, 'a header and the two alert rule entries');
  assert.match(lines[1], new RegExp(`,update,alert_rule,${ruleId},`));
  const ndjson = await page.request.get(
    new URL((await page.locator('[data-testid="export-ndjson"]').getAttribute('href'))!, app.url).toString(),
  );
  const entries = (await ndjson.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { action: string; entityId: string; actor: { name: string } });
  assert.deepEqual(
    entries.map((e) => [e.action, e.entityId, e.actor.name]),
    [
      ['update', ruleId, ADMIN_NAME],
      ['create', ruleId, ADMIN_NAME],
    ],
  );

  // A filter nothing matches: the empty state, and "Clear filters" brings every entry back.
  await page.fill('[data-testid="audit-actor"]', 'nobody at all');
  await page.waitForURL((u) => u.searchParams.get('actor') === 'nobody at all');
  await page.locator('[data-testid="empty-state"]').waitFor();
  assert.equal(await page.locator('[data-testid="audit-shown"]').count(), 0, 'no pager under the empty state');
  await page.screenshot({ path: shot('audit-empty-1440-light') });
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.waitForURL((u) => !u.searchParams.has('actor') && !u.searchParams.has('entityType'));
  await page.locator('[data-testid="audit-row"][data-entity-type="operator"]').waitFor();
});

test('"Load more" appends older entries until the filter is whole, none twice', async () => {
  const total = (await ok('/api/v1/audit?from=now-1h&to=now&limit=500', 'GET', undefined, 200)).entries.length as number;
  assert.ok(total > 4, `${total} entries`);
  await page.goto(`${app.url}/audit?from=now-1h&to=now&limit=2`);
  await rows().first().waitFor();
  assert.equal(await rows().count(), 2);
  for (let shown = 2; shown < total; shown += 2) {
    await page.click('[data-testid="audit-load-more"]');
    await page.locator(`[data-testid="audit-row"]:nth-child(${Math.min(shown + 2, total)})`).waitFor();
  }
  await page.locator('[data-testid="audit-load-more"]').waitFor({ state: 'detached' });
  assert.match(await page.locator('[data-testid="audit-shown"]').innerText(), new RegExp(`^${total} entries shown, all of this filter`));
  const times = await page.locator('[data-testid="audit-at"]').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
  assert.equal(times.length, total);
  assert.deepEqual([...times].sort().reverse(), times);
});

test('a broken range in the link: the error state offers the default range', async () => {
  // A page of its own: the refused read is a console error this test expects.
  const broken = await context.newPage();
  try {
    await broken.goto(`${app.url}/audit?from=yesterday-ish&to=now`);
    await broken.locator('[data-testid="error-state"][data-code="invalid_time_range"]').waitFor();
    await broken.screenshot({ path: shot('audit-error-1440-light') });
    await broken.click('[data-testid="reset-range"]');
    await broken.locator('[data-testid="audit-row"]').first().waitFor();
  } finally {
    await broken.close();
  }
});

test('at 1920, 1440, 1280 and 390 px, light and dark: no sideways scroll, nothing cut or hidden, AA contrast, named controls, no words run together', async () => {
  const problems: string[] = [];
  await page.goto(`${app.url}/audit?from=now-1h&to=now`);
  await rows().first().waitFor();
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const width of [1920, 1440, 1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // The page follows the system's scheme when it changes (components/shell/theme-script.ts).
      await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
      await page.screenshot({ path: shot(`audit-${width}-${theme}`), fullPage: true });
      const wide = await page.evaluate(() => document.scrollingElement!.scrollWidth);
      if (wide > width) problems.push(`${width} px ${theme}: ${wide} px wide: ${(await culpritsPast(page, width)).join(', ')}`);
      for (const p of await settledLayoutProblems(page, { headsOneLine: width >= 1280 })) problems.push(`${width} px ${theme}: ${p}`);
      if (width === 390 && (await topBarRows(page)) > 2) problems.push(`390 px ${theme}: the top bar takes more than two rows`);
      if (width >= 1280 && (await topBarRows(page)) > 1) problems.push(`${width} px ${theme}: the top bar wraps`);
      problems.push(...(await readabilityProblems(page)).map((p) => `${width} px ${theme}: ${p}`));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(problems, []);
});

test('a viewer has no Audit link and is refused the page and the API', async () => {
  const viewer = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
  try {
    const vp = await viewer.newPage();
    // Signed in through the form, sent on to the page it asked for (the login page's ?next=).
    await vp.goto(`${app.url}/login?next=${encodeURIComponent('/audit?from=now-1h&to=now')}`);
    await vp.fill('[data-testid="login-token"]', viewerToken);
    await vp.click('[data-testid="login-submit"]');
    await vp.waitForURL((u) => u.pathname === '/audit');
    await vp.locator('[data-testid="audit-refused"]').waitFor();
    assert.equal(await vp.getByRole('link', { name: 'Audit', exact: true }).count(), 0);
    assert.match(await vp.locator('[data-testid="audit-refused"]').innerText(), /Administrators only/);
    assert.equal(await vp.locator('[data-testid="audit-row"]').count(), 0);
    await vp.screenshot({ path: shot('audit-viewer-1280') });
    assert.equal((await api('/api/v1/audit', 'GET', undefined, viewerToken)).status, 403);
  } finally {
    await viewer.close();
  }
  assert.deepEqual(errors, []);
});
