// Issue 24's "Done when", end to end through the real HTTP API (SQLite or PostgreSQL by
// DOORWATCH_TEST_DATABASE), with the real TypeScript reporter and a real webhook receiver on loopback:
// 1. a fleet deploys a naive version: its reporter sends v2.3.1, a CI token (annotate role) posts the deploy;
// 2. Doorwatch opens exactly one incident, naming v2.3.1 (and the deploy is on its timeline);
// 3. it is acknowledged: the fleet stays naive a while longer and its alert resolves, and no
//    further notification goes out (the changes are stored as suppressed);
// 4. the version is rolled back (v2.3.0 reports, refusing at the door): after the quiet period
//    (DOORWATCH_INCIDENT_QUIET_MS, set short) the incident resolves on its own;
// 5. the bug returns with v2.3.2: the same incident reopens as a regression naming the version.
// Every wait is on a condition; the longest is the alert's 60 s window clearing after the rollback.
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createReporter, type DoorwatchEvent } from '@doorwatch/reporter';
import { generateSecret } from '@/lib/contract/server-secret';
import { startAppServer, type AppServer } from '../support/app-server';
import { addContactPoint, api, until } from '../support/alert-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const FLEET = { name: 'fleet', secret: generateSecret() };
const QUIET_MS = 4_000;
const WINDOW_WAIT_MS = 150_000;

let app: AppServer;
let receiver: WebhookReceiver;
let incidentId = '';
let ciToken = '';

before(async () => {
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: `${FLEET.name}=${FLEET.secret}`,
      DOORWATCH_ALERT_INTERVAL_MS: '300',
      DOORWATCH_INCIDENT_QUIET_MS: String(QUIET_MS),
      DOORWATCH_SECRET_KEY: randomBytes(32).toString('base64'),
    },
  });
  receiver = await startWebhookReceiver(200);
  // The starter rules look back 15 min, so an incident of theirs cannot go quiet within a test:
  // they are switched off, and the fleet's rule below uses the shortest window (60 s).
  for (const r of (await api(app, '/api/v1/alerts/rules')).body.rules) {
    const off = await api(app, `/api/v1/alerts/rules/${r.id}`, { method: 'PATCH', body: { enabled: false } });
    assert.equal(off.status, 200, JSON.stringify(off.body));
  }
  const cp = await addContactPoint(app, receiver, 'on-call');
  const rule = await api(app, '/api/v1/alerts/rules', {
    method: 'POST',
    body: {
      name: 'Naive resume on the fleet',
      measure: 'naive_resumes',
      comparison: 'gt',
      threshold: 0,
      windowSeconds: 60,
      forSeconds: 0,
      server: FLEET.name,
      contactPointIds: [cp],
    },
  });
  assert.equal(rule.status, 201, JSON.stringify(rule.body));
  const ci = await api(app, '/api/v1/operators', { method: 'POST', body: { name: 'ci', role: 'annotate' } });
  assert.equal(ci.status, 201, JSON.stringify(ci.body));
  ciToken = ci.body.token;
});

after(async () => {
  if (process.env.DEBUG_INCIDENTS) console.log(app.output().slice(-6000));
  await app?.stop();
  await receiver?.close();
});

/** One boundary session that just happened (after `notBefore`): the resume is accepted naively or refused. */
function boundary(token: string, naive: boolean, notBefore = 0): DoorwatchEvent[] {
  const t = Math.max(Date.now() - 1000, notBefore + 1);
  const at = (ms: number) => new Date(t + ms).toISOString();
  return [
    { id: `${token}-o`, token, type: 'session.opened', at: at(0), data: {} },
    { id: `${token}-u`, token, type: 'upgrade.accepted', at: at(100), data: { eventId: 3 } },
    { id: `${token}-d`, token, type: 'stream.dropped', at: at(150), data: {} },
    { id: `${token}-r`, token, type: 'resume.requested', at: at(200), data: { lastEventId: 3 } },
    naive
      ? { id: `${token}-a`, token, type: 'resume.accepted', at: at(240), data: { replayed: 0 } }
      : { id: `${token}-x`, token, type: 'resume.refused', at: at(260), data: {} },
  ];
}

/** The fleet's pods on `version` report `tokens` through the real reporter. */
async function report(version: string, tokens: string[], naive: boolean, notBefore = 0): Promise<void> {
  const errors: string[] = [];
  const reporter = createReporter({
    url: app.url,
    server: FLEET.name,
    secret: FLEET.secret,
    instance: `pod-${version}`,
    version,
    onError: (e) => errors.push(e.code),
  });
  for (const token of tokens) for (const e of boundary(token, naive, notBefore)) reporter.report(e);
  await reporter.close();
  assert.deepEqual(errors, []);
}

const incidents = async () => (await api(app, '/api/v1/incidents')).body;
const detail = async () => (await api(app, `/api/v1/incidents/${incidentId}`)).body;
const deliveries = async () => (await api(app, '/api/v1/alerts/deliveries?limit=1000')).body.deliveries as any[];
const firings = () => receiver.requests.filter((r) => r.json?.kind === 'firing');

/** Steps 3–5 follow the incident step 1-2 found: without it they skip rather than fail on an empty id. */
function followsTheIncident(t: TestContext): boolean {
  if (incidentId) return true;
  t.skip('step 1-2 found no incident (its failure says why)');
  return false;
}

test('1-2. a naive deploy, announced by CI, opens one incident naming the version; the notification carries its id', async () => {
  await report('v2.3.0', ['good-1', 'good-2'], false);
  // The alert sums per-minute rollups whose minute starts inside its 60 s window, so a naive
  // resume counts until its minute is a minute old. Its events are dated 1 s back: start between
  // 3 s and 40 s into a minute, so they fall in this minute and stay counted for 20 s or more.
  await until(
    'a minute with room for the alert',
    async () => Date.now() % 60_000,
    (ms) => ms > 3_000 && ms < 40_000,
    60_000,
  );
  const deploy = await api(app, '/api/v1/annotations', {
    method: 'POST',
    token: ciToken,
    body: { time: Date.now() - 2_000, text: 'deployed v2.3.1 to the fleet', tags: ['deploy', 'v2.3.1'], server: FLEET.name },
  });
  assert.equal(deploy.status, 201, JSON.stringify(deploy.body));
  await report('v2.3.1', ['naive-1', 'naive-2'], true);

  const opened = await until('the incident with both sessions', incidents, (b) => b.incidents[0]?.sessionCount === 2);
  assert.equal(opened.total, 1, 'exactly one incident');
  const inc = opened.incidents[0];
  incidentId = inc.id;
  assert.equal(inc.server, FLEET.name);
  assert.equal(inc.kind, 'naive_resume');
  assert.equal(inc.status, 'open');
  assert.deepEqual(inc.versions, ['v2.3.1'], 'the good version served none of its sessions');

  await receiver.waitFor((r) => r.some((x) => x.json?.kind === 'firing'), 'the firing notification');
  assert.equal(firings().length, 1);
  assert.equal(firings()[0]!.json.incidentId, incidentId);
  assert.ok(firings()[0]!.signatureValid);
  assert.equal((await incidents()).total, 1, 'the alert joined the incident');

  const d = await detail();
  // Which evidence opens it is a race between the session sweep and the alert evaluator (under load
  // the alert came first in a CI run): a session opening names its version; either way the incident's
  // versions (asserted above) name it.
  const opening = d.timeline.find((e: any) => e.source === 'activity' && e.kind === 'opened');
  // A session is seen before the sweep records it, and says when; an alert opens it as it fires.
  assert.match(opening.summary, /^opened by (session naive-\d served by v2\.3\.1 \(seen \d{4}-|alert "Naive resume on the fleet"$)/);
  const annotation = d.timeline.find((e: any) => e.source === 'annotation');
  assert.equal(annotation?.summary, 'deployed v2.3.1 to the fleet [deploy, v2.3.1]');
  assert.equal(annotation.actor, 'ci');
  assert.ok(
    d.timeline.some((e: any) => e.source === 'version' && e.ref === 'v2.3.1'),
    'the version first reported before it began',
  );
});

test('3. acknowledged: more naive sessions join it and the alert resolves, but no notification goes out', async (t) => {
  if (!followsTheIncident(t)) return;
  const ack = await api(app, `/api/v1/incidents/${incidentId}/acknowledge`, { method: 'POST' });
  assert.equal(ack.status, 200, JSON.stringify(ack.body));
  assert.equal(ack.body.incident.acknowledgedBy, 'bootstrap admin');
  const sent = receiver.requests.length;

  await report('v2.3.1', ['naive-3'], true);
  const joined = await until('the third session joining', incidents, (b) => b.incidents[0]?.sessionCount === 3);
  assert.equal(joined.total, 1);
  assert.equal(joined.incidents[0].status, 'acknowledged');

  // 4 begins: the rollback. The alert's window clears, its change belongs to the acknowledged incident.
  await report('v2.3.0', ['good-3', 'good-4'], false);
  const suppressed = await until(
    'the alert resolving, suppressed',
    deliveries,
    (l) => l.some((x) => x.status === 'suppressed'),
    WINDOW_WAIT_MS,
  );
  assert.match(suppressed.find((x) => x.status === 'suppressed').lastError, new RegExp(`incident ${incidentId} was acknowledged`));
  assert.equal(receiver.requests.length, sent, 'nothing sent after the acknowledgement');
});

test('4. rolled back: after the quiet period the incident resolves on its own', async (t) => {
  if (!followsTheIncident(t)) return;
  const resolved = await until('the quiet resolution', detail, (b) => b.incident.status === 'resolved', WINDOW_WAIT_MS);
  assert.equal(resolved.incident.resolvedBy, 'doorwatch (quiet period)');
  assert.equal(resolved.incident.sessionCount, 3, 'the good version added no session');
  assert.deepEqual(resolved.incident.versions, ['v2.3.1']);
  assert.ok(resolved.timeline.some((e: any) => e.kind === 'auto_resolved'));
  assert.equal((await incidents()).totals.resolved, 1);
});

test('5. the bug returns: the same incident reopens as a regression naming the version', async (t) => {
  if (!followsTheIncident(t)) return;
  // After the resolution: evidence dated before it (a late delivery) joins the resolved incident instead.
  const resolvedAt = Date.parse((await detail()).incident.resolvedAt);
  await report('v2.3.2', ['naive-4'], true, resolvedAt);
  // The alert evaluator may reopen the incident before the session sweep joins naive-4 to it (one
  // alert interval later): wait for both, not for the first.
  const back = await until(
    'the regression, with the session that brought it',
    detail,
    (b) => b.incident.status === 'open' && b.incident.versions.includes('v2.3.2'),
  );
  assert.equal(back.incident.id, incidentId);
  assert.equal(back.incident.regression, true);
  assert.equal(back.incident.regressions, 1);
  assert.equal(back.incident.acknowledgedBy, null, 'a regression needs a new acknowledgement');
  assert.deepEqual([...back.incident.versions].sort(), ['v2.3.1', 'v2.3.2']);
  const regressed = back.timeline.find((e: any) => e.kind === 'regressed');
  // As for the opening: the session sweep or the alert evaluator may see the recurrence first.
  assert.match(regressed.summary, /^regression: (session naive-4 served by v2\.3\.2|alert "Naive resume on the fleet") seen /);
  const list = await incidents();
  assert.equal(list.total, 1, 'reopened, not a second incident');
  assert.equal(list.incidents[0].regression, true);
});
