// Alert rules end to end against the real app (SQLite or PostgreSQL by DOORWATCH_TEST_DATABASE):
// default rules, admin/viewer access, a naive resume firing a rule, signed notifications to local
// receivers (one fails twice then succeeds, one always fails and shows as failed, one Slack-shaped),
// resolution, a restart that keeps a pending notification, and two instances on one database
// evaluating exactly once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startAppServer, type AppServer } from '../support/app-server';
import { addContactPoint, api, postNaiveResume as postNaive, until } from '../support/alert-fixtures';
import { createTestDatabase } from '../support/test-database';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { generateSecret } from '@/lib/contract/server-secret';

const SECRET = generateSecret();
const postNaiveResume = (app: AppServer, token: string) => postNaive(app, 'alpha', SECRET, token);
const ENV = {
  DOORWATCH_SERVERS: `alpha=${SECRET}`,
  DOORWATCH_ALERT_INTERVAL_MS: '300',
  DOORWATCH_ALERT_RETRY_BASE_MS: '100',
  DOORWATCH_ALERT_MAX_ATTEMPTS: '3',
  DOORWATCH_PUBLIC_ORIGIN: 'https://dw.example.test',
  DOORWATCH_SECRET_KEY: randomBytes(32).toString('base64'),
};

const receivers: WebhookReceiver[] = [];
const newReceiver = async (fallback = 200) => {
  const r = await startWebhookReceiver(fallback);
  receivers.push(r);
  return r;
};
after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

let app: AppServer;
before(async () => {
  app = await startAppServer({ env: ENV });
});
after(async () => {
  await app?.stop();
});

test('three default rules exist; viewers read rules and history, only admins write', async () => {
  const rules = await api(app, '/api/v1/alerts/rules');
  assert.equal(rules.status, 200);
  assert.deepEqual(
    rules.body.rules.map((r: any) => [r.id, r.measure, r.comparison, r.threshold, r.forSeconds, r.enabled]),
    [
      ['default-deadlock-ongoing', 'deadlocks_ongoing', 'gt', 0, 30, true],
      ['default-dual-negotiation', 'dual_negotiations', 'gt', 0, 0, true],
      ['default-naive-resume', 'naive_resumes', 'gt', 0, 0, true],
    ],
  );
  const viewer = (await api(app, '/api/v1/operators', { method: 'POST', body: { name: 'watcher', role: 'viewer' } })).body.token;
  assert.equal((await api(app, '/api/v1/alerts/rules', { token: viewer })).status, 200);
  assert.equal((await api(app, '/api/v1/alerts/history', { token: viewer })).status, 200);
  assert.equal((await api(app, '/api/v1/alerts/deliveries', { token: viewer })).status, 200);
  const create = await api(app, '/api/v1/alerts/rules', {
    method: 'POST',
    token: viewer,
    body: { name: 'x', measure: 'naive_resumes', comparison: 'gt', threshold: 0, windowSeconds: 60, forSeconds: 0 },
  });
  assert.equal(create.status, 403);
  assert.equal(
    (await api(app, '/api/v1/alerts/rules/default-naive-resume', { method: 'PATCH', token: viewer, body: { enabled: false } })).status,
    403,
  );
  // Bad input is a 400 naming the field, an unknown contact point a 400, an unknown rule a 404.
  const bad = await api(app, '/api/v1/alerts/rules', {
    method: 'POST',
    body: { name: 'x', measure: 'nope', comparison: 'gt', threshold: 0, windowSeconds: 60, forSeconds: 0 },
  });
  assert.equal(bad.status, 400);
  const unknownCp = await api(app, '/api/v1/alerts/rules', {
    method: 'POST',
    body: {
      name: 'x',
      measure: 'naive_resumes',
      comparison: 'gt',
      threshold: 0,
      windowSeconds: 60,
      forSeconds: 0,
      contactPointIds: ['nope'],
    },
  });
  assert.equal(unknownCp.status, 400);
  assert.equal(unknownCp.body.error.code, 'contact_point_not_found');
  assert.equal((await api(app, '/api/v1/alerts/rules/nope', { method: 'DELETE' })).status, 404);
  // A created rule can be edited and deleted.
  const made = await api(app, '/api/v1/alerts/rules', {
    method: 'POST',
    body: {
      name: 'slow refusals',
      measure: 'refusal_latency_p95_ms',
      comparison: 'gt',
      threshold: 200,
      windowSeconds: 600,
      forSeconds: 60,
      server: 'alpha',
    },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const edited = await api(app, `/api/v1/alerts/rules/${made.body.rule.id}`, { method: 'PATCH', body: { threshold: 250 } });
  assert.equal(edited.body.rule.threshold, 250);
  assert.equal(edited.body.rule.server, 'alpha');
  assert.equal((await api(app, `/api/v1/alerts/rules/${made.body.rule.id}`, { method: 'DELETE' })).status, 204);
});

test('a naive resume fires the rule; notifications are signed, retried, Slack-shaped, and a failing one shows as failed', async () => {
  const good = await newReceiver(200);
  const flaky = await newReceiver(200);
  flaky.script(500, 503);
  const down = await newReceiver(503);
  const slack = await newReceiver(200);
  const ids = [
    await addContactPoint(app, good, 'good'),
    await addContactPoint(app, flaky, 'flaky'),
    await addContactPoint(app, down, 'down'),
    await addContactPoint(app, slack, 'chat', 'slack'),
  ];
  const stored = await app.query<{ secret: string }>('SELECT "secret" FROM "AlertContactPoint"');
  assert.ok(
    stored.every((r) => r.secret.startsWith('dwsealed:v1:')),
    'contact point secrets are sealed at rest',
  );
  const listed = await api(app, '/api/v1/alerts/contact-points');
  assert.ok(!JSON.stringify(listed.body).includes('whsec_'), 'secrets are never listed');

  const patched = await api(app, '/api/v1/alerts/rules/default-naive-resume', {
    method: 'PATCH',
    body: { contactPointIds: ids, server: 'alpha' },
  });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));

  await postNaiveResume(app, 'naive-1');
  const rules = await until(
    'the rule to fire',
    () => api(app, '/api/v1/alerts/rules'),
    (r) => r.body.rules.find((x: any) => x.id === 'default-naive-resume')?.status?.state === 'firing',
  );
  assert.equal(rules.body.firing, 1);

  await good.waitFor((r) => r.length >= 1, 'the good receiver');
  const n = good.requests[0];
  assert.equal(n.signatureValid, true);
  assert.equal(n.json.type, 'alert.transition');
  assert.equal(n.json.kind, 'firing');
  assert.equal(n.json.rule.id, 'default-naive-resume');
  assert.equal(n.json.value, 1);
  assert.match(
    n.json.sessionsUrl,
    /^https:\/\/dw\.example\.test\/sessions\?from=.+&to=.+&server=alpha&flag=naive_resume&synthetic=exclude$/,
  );

  await flaky.waitFor((r) => r.length >= 3, 'three attempts at the flaky receiver');
  assert.deepEqual(
    flaky.requests.map((r) => r.status),
    [500, 503, 200],
  );
  assert.equal(new Set(flaky.requests.map((r) => r.webhookId)).size, 1, 'webhook-id is stable across retries');
  assert.ok(flaky.requests.every((r) => r.signatureValid && r.body === flaky.requests[0].body));

  await slack.waitFor((r) => r.length >= 1, 'the Slack receiver');
  assert.deepEqual(Object.keys(slack.requests[0].json), ['text']);
  assert.match(slack.requests[0].json.text, /FIRING: Naive resume/);
  assert.match(slack.requests[0].json.text, /<https:\/\/dw\.example\.test\/sessions\?[^|]+\|[^>]+>/);
  assert.equal(slack.requests[0].signatureValid, true);

  const failed = await until(
    'the failing delivery to be marked failed',
    () => api(app, '/api/v1/alerts/deliveries?status=failed'),
    (r) => r.body.deliveries.length === 1,
  );
  assert.equal(down.requests.length, 3, 'bounded attempts (DOORWATCH_ALERT_MAX_ATTEMPTS)');
  assert.equal(failed.body.deliveries[0].contactPointName, 'down');
  assert.equal(failed.body.deliveries[0].attempts, 3);
  assert.match(failed.body.deliveries[0].lastError, /503/);
  assert.equal((await api(app, '/api/v1/alerts/rules')).body.failedDeliveries, 1, 'the banner counts it');

  // Disabling the rule resolves it: one more notification, and the history shows both changes.
  await api(app, '/api/v1/alerts/rules/default-naive-resume', { method: 'PATCH', body: { enabled: false } });
  await good.waitFor((r) => r.length >= 2, 'the resolved notification');
  assert.equal(good.requests[1].json.kind, 'resolved');
  assert.notEqual(good.requests[1].webhookId, good.requests[0].webhookId);
  const history = await api(app, '/api/v1/alerts/history?rule=default-naive-resume');
  assert.deepEqual(
    history.body.transitions.map((t: any) => t.kind),
    ['resolved', 'firing'],
  );
  const firing = history.body.transitions[1];
  assert.deepEqual(firing.deliveries.map((d: any) => d.status).sort(), ['delivered', 'delivered', 'delivered', 'failed']);
  assert.match(firing.sessionsPath, /^\/sessions\?from=.+&server=alpha&flag=naive_resume&synthetic=exclude$/);
  await api(app, '/api/v1/alerts/rules/default-naive-resume', { method: 'PATCH', body: { enabled: true, contactPointIds: [] } });
});

test('a pending notification survives a crash and is delivered after the restart', async () => {
  const db = await createTestDatabase();
  const receiver = await newReceiver(503);
  let first: AppServer | null = await startAppServer({ databaseUrl: db.url, env: { ...ENV, DOORWATCH_ALERT_RETRY_BASE_MS: '60000' } });
  let second: AppServer | null = null;
  try {
    const cp = await addContactPoint(first, receiver, 'later');
    await api(first, '/api/v1/alerts/rules/default-naive-resume', { method: 'PATCH', body: { contactPointIds: [cp] } });
    await postNaiveResume(first, 'naive-restart');
    await receiver.waitFor((r) => r.length >= 1, 'the first attempt');
    await first.crash();
    first = null;
    receiver.fallback = 200;
    // The retry is a minute away: the restarted instance (short backoff) must still find it due then.
    await db.query('UPDATE "AlertDelivery" SET "nextAttemptAt" = ? WHERE "status" = ?', [Date.now(), 'pending']);
    second = await startAppServer({ databaseUrl: db.url, env: ENV });
    await receiver.waitFor((r) => r.some((x) => x.status === 200), 'the delivery after the restart');
    assert.equal(new Set(receiver.requests.map((r) => r.webhookId)).size, 1, 'the same notification, not a new one');
    assert.equal(receiver.requests.filter((r) => r.status === 200).length, 1);
    const [row] = await until(
      'the delivery to be recorded',
      () => db.query('SELECT "status", "attempts" FROM "AlertDelivery"'),
      (rows) => rows[0]?.status !== 'pending',
    );
    assert.equal(row.status, 'delivered');
    assert.equal(Number(row.attempts), 2);
  } finally {
    await first?.crash();
    await second?.stop();
    await db.drop();
  }
});

test('two instances on one database evaluate each rule once: no duplicate transitions or notifications', async () => {
  const db = await createTestDatabase();
  const receiver = await newReceiver(200);
  const a = await startAppServer({ databaseUrl: db.url, env: { ...ENV, DOORWATCH_ALERT_INTERVAL_MS: '150' } });
  const b = await startAppServer({ databaseUrl: db.url, env: { ...ENV, DOORWATCH_ALERT_INTERVAL_MS: '150' } });
  try {
    const cp = await addContactPoint(a, receiver, 'pager');
    await api(b, '/api/v1/alerts/rules/default-naive-resume', { method: 'PATCH', body: { contactPointIds: [cp] } });
    await postNaiveResume(b, 'naive-two');
    await receiver.waitFor((r) => r.length >= 1, 'the firing notification');
    // Many evaluation ticks of both instances later, still one transition and one notification.
    await new Promise((r) => setTimeout(r, 3000));
    const transitions = await db.query('SELECT "kind" FROM "AlertTransition" WHERE "ruleId" = ?', ['default-naive-resume']);
    assert.deepEqual(
      transitions.map((t) => t.kind),
      ['firing'],
    );
    assert.equal(receiver.requests.length, 1);
    await api(a, '/api/v1/alerts/rules/default-naive-resume', { method: 'PATCH', body: { enabled: false } });
    await receiver.waitFor((r) => r.length >= 2, 'the resolved notification');
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(
      receiver.requests.map((r) => r.json.kind),
      ['firing', 'resolved'],
    );
    assert.equal((await db.query('SELECT COUNT(*) AS "n" FROM "AlertTransition"'))[0].n, 2);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await db.drop();
  }
});
