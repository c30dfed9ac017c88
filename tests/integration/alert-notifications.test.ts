// Issue 23, notifications, against the real app (SQLite or PostgreSQL by DOORWATCH_TEST_DATABASE)
// and real receivers on loopback that verify every request with `standardwebhooks`:
// - a receiver that fails and then recovers ends on the newest state (a stale "resolved" used to
//   arrive after the newer "firing");
// - rules for all servers fire per server and say which;
// - links use the bound address without DOORWATCH_PUBLIC_ORIGIN, and the start-up log says so;
// - the per-contact-point rate bound holds back the excess and reports it in a summary.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startAppServer, type AppServer } from '../support/app-server';
import { addContactPoint, api, postNaiveResume, until } from '../support/alert-fixtures';
import { startWebhookReceiver, type ReceivedNotification, type WebhookReceiver } from '../support/webhook-receiver';
import { generateSecret } from '@/lib/contract/server-secret';

const SECRETS = { alpha: generateSecret(), beta: generateSecret(), gamma: generateSecret() };
const ENV = {
  DOORWATCH_SERVERS: Object.entries(SECRETS)
    .map(([n, s]) => `${n}=${s}`)
    .join(','),
  DOORWATCH_ALERT_INTERVAL_MS: '300',
  // A failed attempt is retried seconds later: long after the next evaluation has run.
  DOORWATCH_ALERT_RETRY_BASE_MS: '4000',
  DOORWATCH_ALERT_MAX_ATTEMPTS: '5',
  DOORWATCH_ALERT_MAX_PER_MINUTE: '3',
  DOORWATCH_SECRET_KEY: randomBytes(32).toString('base64'),
  // No DOORWATCH_PUBLIC_ORIGIN: links must use the bound address.
};

const receivers: WebhookReceiver[] = [];
const newReceiver = async (fallback = 200) => {
  const r = await startWebhookReceiver(fallback);
  receivers.push(r);
  return r;
};

let app: AppServer;
before(async () => {
  app = await startAppServer({ env: ENV });
});
after(async () => {
  await app?.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

const accepted = (r: ReceivedNotification[]) => r.filter((x) => x.status >= 200 && x.status < 300);

async function createRule(name: string, contactPointIds: string[], server: string | null = null): Promise<string> {
  const res = await api(app, '/api/v1/alerts/rules', {
    method: 'POST',
    body: { name, measure: 'naive_resumes', comparison: 'gt', threshold: 0, windowSeconds: 300, forSeconds: 0, server, contactPointIds },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.rule.id;
}

const deliveriesOf = async (contactPointId: string) =>
  (await api(app, '/api/v1/alerts/deliveries?limit=1000')).body.deliveries.filter((d: any) => d.contactPointId === contactPointId);

test('a receiver that fails and then recovers ends on the newest state', async () => {
  const receiver = await newReceiver(200);
  const cp = await addContactPoint(app, receiver, 'pager');
  const rule = await createRule('Flapping naive resume', [cp]);
  await postNaiveResume(app, 'alpha', SECRETS.alpha, 'flap-1');
  await receiver.waitFor((r) => accepted(r).length >= 1, 'the first firing');
  const first = accepted(receiver.requests)[0].json;
  assert.equal(first.kind, 'firing');
  assert.equal(first.server, 'alpha');
  assert.equal(first.alertKey, `${rule}/alpha`);
  assert.ok(first.sessionsUrl.startsWith(`${app.url}/sessions?`), `links use the bound address: ${first.sessionsUrl}`);

  // The receiver fails; the rule resolves, and its "resolved" fails and waits for a retry…
  receiver.script(503);
  await api(app, `/api/v1/alerts/rules/${rule}`, { method: 'PATCH', body: { enabled: false } });
  await receiver.waitFor((r) => r.some((x) => x.json?.kind === 'resolved' && x.status === 503), 'the failed resolved');
  // …the rule fires again (the naive resume is still in its window), and the receiver is back.
  await api(app, `/api/v1/alerts/rules/${rule}`, { method: 'PATCH', body: { enabled: true } });
  await receiver.waitFor((r) => accepted(r).some((x) => x.json.kind === 'firing' && x.json.sequence > first.sequence), 'the second firing');
  await until(
    'nothing left to send to the receiver',
    () => deliveriesOf(cp),
    (ds) => ds.length === 3 && ds.every((d: any) => d.status !== 'pending'),
  );

  assert.ok(
    receiver.requests.every((r) => r.signatureValid),
    'every request verifies with standardwebhooks',
  );
  const got = accepted(receiver.requests).map((r) => [r.json.kind, r.json.sequence]);
  const sequences = got.map(([, s]) => s as number);
  assert.deepEqual(
    [...sequences].sort((a, b) => a - b),
    sequences,
    `accepted in sequence order: ${JSON.stringify(got)}`,
  );
  assert.equal(got.at(-1)![0], 'firing', `the receiver ends on the newest state: ${JSON.stringify(got)}`);
  assert.ok(!got.some(([kind]) => kind === 'resolved'), 'the stale resolved was never delivered');
  const rules = (await api(app, '/api/v1/alerts/rules')).body.rules;
  assert.deepEqual(rules.find((r: any) => r.id === rule).firingServers, ['alpha']);
  const history = (await api(app, `/api/v1/alerts/history?rule=${rule}`)).body.transitions;
  assert.deepEqual(
    history.map((t: any) => [t.kind, t.alertServer, t.deliveries.map((d: any) => d.status)]),
    [
      ['firing', 'alpha', ['delivered']],
      ['resolved', 'alpha', ['superseded']],
      ['firing', 'alpha', ['delivered']],
    ],
  );
});

test('rules for all servers fire per server, and each message names its server', async () => {
  const receiver = await newReceiver(200);
  const cp = await addContactPoint(app, receiver, 'per-server', 'slack');
  await postNaiveResume(app, 'beta', SECRETS.beta, 'beta-1');
  const rule = await createRule('Naive resume anywhere', [cp]);
  await receiver.waitFor((r) => r.length >= 2, 'a firing per server');
  const texts = receiver.requests.map((r) => r.json.text as string).sort();
  assert.equal(texts.length, 2);
  assert.match(texts[0], /^\*FIRING: Naive resume anywhere on alpha — naive resumes: 1, more than 0 over the last 5 min\*/);
  assert.match(texts[1], /^\*FIRING: Naive resume anywhere on beta — /);
  assert.ok(texts.every((t) => !t.includes('all servers')));
  assert.match(texts[0], /&server=alpha&flag=naive_resume&synthetic=exclude\|/);
  const rules = await until(
    'each server evaluated',
    async () => (await api(app, '/api/v1/alerts/rules')).body.rules,
    (rs: any[]) => rs.find((r) => r.id === rule)?.servers.length === 3,
  );
  const mine = rules.find((r: any) => r.id === rule);
  assert.deepEqual(mine.firingServers, ['alpha', 'beta']);
  assert.deepEqual(
    mine.servers.map((s: any) => [s.server, s.state]),
    [
      ['alpha', 'firing'],
      ['beta', 'firing'],
      ['gamma', 'inactive'],
    ],
  );
  // The built-in rule is evaluated the same way.
  assert.deepEqual(rules.find((r: any) => r.id === 'default-naive-resume').firingServers, ['alpha', 'beta']);
  await api(app, `/api/v1/alerts/rules/${rule}`, { method: 'DELETE' });
});

test('without DOORWATCH_PUBLIC_ORIGIN the start-up log says where links will point', () => {
  const line = app
    .output()
    .split('\n')
    .find((l) => l.includes('DOORWATCH_PUBLIC_ORIGIN is not set'));
  assert.ok(line, 'a start-up warning');
  assert.equal(JSON.parse(line).linkOrigin, app.url);
});

test('the rate bound holds back what exceeds it per contact point and reports how many in a summary', async () => {
  const receiver = await newReceiver(200);
  const cp = await addContactPoint(app, receiver, 'storm');
  const rules: string[] = [];
  for (const n of [1, 2, 3, 4]) rules.push(await createRule(`Storm ${n}`, [cp], 'alpha'));
  const ds = await until(
    'four notifications, one held back',
    () => deliveriesOf(cp),
    (d) => d.length === 4 && d.filter((x: any) => x.status === 'delivered').length === 3,
  );
  assert.deepEqual(ds.map((d: any) => d.status).sort(), ['delivered', 'delivered', 'delivered', 'held']);
  assert.equal(receiver.requests.length, 3, 'at most DOORWATCH_ALERT_MAX_PER_MINUTE (3) a minute');
  const held = ds.find((d: any) => d.status === 'held');
  const heldRule = (await api(app, '/api/v1/alerts/history?limit=50')).body.transitions.find((t: any) => t.id === held.transitionId);

  // A minute on (the queued rows are moved back a minute), the held one is reported, not dropped.
  await app.query('UPDATE "AlertDelivery" SET "createdAt" = "createdAt" - 60000 WHERE "contactPointId" = ?', [cp]);
  await receiver.waitFor((r) => r.length >= 4, 'the summary');
  const summary = receiver.requests[3];
  assert.equal(summary.signatureValid, true);
  assert.equal(summary.json.type, 'alert.summary');
  assert.equal(summary.json.heldBack, 1);
  assert.deepEqual(
    summary.json.alerts.map((a: any) => [a.ruleName, a.server, a.kind]),
    [[heldRule.ruleName, 'alpha', 'firing']],
  );
  assert.match(summary.json.summary, /^1 notification was held back for this contact point \(at most 3 a minute\)/);
  assert.equal((await deliveriesOf(cp)).find((d: any) => d.id === held.id).status, 'summarized');
  for (const id of rules) await api(app, `/api/v1/alerts/rules/${id}`, { method: 'DELETE' });
});
