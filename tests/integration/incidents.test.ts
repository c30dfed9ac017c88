// Issue 24, incidents, against the real app (SQLite or PostgreSQL by DOORWATCH_TEST_DATABASE), with
// a real receiver on loopback and a second instance on the same database:
// - a naive server's sessions open ONE incident, and more sessions join it;
// - the naive-resume alert firing on that server joins it, and its notification carries incidentId;
// - acknowledged, its alert's later changes are stored suppressed and nothing more is sent;
// - resolved by hand (twice: 409), a recurrence reopens it as a regression;
// - a silence suppresses (and counts) a notification; it expires by hand;
// - a quiet incident resolves on its own (its evidence is older than the quiet period) and reopens;
// - a deadlocks_ongoing rule's incident lists the deadlocked sessions and the versions that served them;
// - two instances acknowledging at once record one acknowledgement;
// - unknown ids answer 404, bad input 400.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startAppServer, type AppServer } from '../support/app-server';
import { addContactPoint, api, postNaiveResume, until } from '../support/alert-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { postEvents, postSigned } from '../support/post-events';
import { generateSecret } from '@/lib/contract/server-secret';

const SECRETS = { alpha: generateSecret(), beta: generateSecret(), gamma: generateSecret(), delta: generateSecret() };
const ENV = {
  DOORWATCH_SERVERS: Object.entries(SECRETS)
    .map(([n, s]) => `${n}=${s}`)
    .join(','),
  DOORWATCH_ALERT_INTERVAL_MS: '300',
  DOORWATCH_INCIDENT_QUIET_MS: '3600000',
  DOORWATCH_SECRET_KEY: randomBytes(32).toString('base64'),
};

let app: AppServer;
let second: AppServer;
let receiver: WebhookReceiver;
let cp = '';
before(async () => {
  app = await startAppServer({ env: ENV });
  second = await startAppServer({ env: ENV, databaseUrl: app.databaseUrl });
  receiver = await startWebhookReceiver(200);
  cp = await addContactPoint(app, receiver, 'pager');
});
after(async () => {
  if (process.env.DEBUG_INCIDENTS) console.log(app.output().slice(-6000));
  await second?.stop();
  await app?.stop();
  await receiver?.close();
});

const incidentsOf = async (server: string) => (await api(app, `/api/v1/incidents?server=${server}`)).body;
const detail = async (id: string) => (await api(app, `/api/v1/incidents/${id}`)).body;
const deliveries = async () => (await api(app, '/api/v1/alerts/deliveries?limit=1000')).body.deliveries as any[];

async function createRule(name: string, server: string, measure = 'naive_resumes', windowSeconds = 300): Promise<string> {
  const res = await api(app, '/api/v1/alerts/rules', {
    method: 'POST',
    body: {
      name,
      measure,
      comparison: 'gt',
      threshold: 0,
      windowSeconds,
      forSeconds: 0,
      server,
      contactPointIds: [cp],
    },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.rule.id;
}

/** A naive resume whose events happened `agoMs` ago, reported as served by `version` when given. */
async function postOldNaiveResume(server: keyof typeof SECRETS, token: string, agoMs: number, version?: string) {
  const t = Date.now() - agoMs;
  const at = (ms: number) => new Date(t + ms).toISOString();
  const events = [
    { id: `${token}-o`, token, type: 'session.opened', at: at(0), data: {} },
    { id: `${token}-u`, token, type: 'upgrade.accepted', at: at(100), data: { eventId: 3 } },
    { id: `${token}-d`, token, type: 'stream.dropped', at: at(150), data: {} },
    { id: `${token}-r`, token, type: 'resume.requested', at: at(200), data: { lastEventId: 3 } },
    { id: `${token}-a`, token, type: 'resume.accepted', at: at(240), data: { replayed: 0 } },
  ];
  const res = version
    ? await postSigned(app.url, server, SECRETS[server], JSON.stringify({ version, events }))
    : await postEvents(app.url, server, SECRETS[server], events);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

let alphaIncident = '';

test('a naive server opens one incident; more sessions join it; its alert joins it and the notification carries incidentId', async () => {
  await postNaiveResume(app, 'alpha', SECRETS.alpha, 'alpha-1', 'v2.3.1');
  await postNaiveResume(app, 'alpha', SECRETS.alpha, 'alpha-2');
  const first = await until(
    'the incident with two sessions',
    () => incidentsOf('alpha'),
    (b) => b.incidents[0]?.sessionCount === 2,
  );
  assert.equal(first.total, 1);
  const inc = first.incidents[0];
  alphaIncident = inc.id;
  assert.equal(inc.kind, 'naive_resume');
  assert.equal(inc.status, 'open');
  assert.equal(inc.regression, false);
  // The version its reporter named; alpha-2 named none.
  assert.deepEqual(inc.versions, ['v2.3.1']);
  await postNaiveResume(app, 'alpha', SECRETS.alpha, 'alpha-3');
  const joined = await until(
    'the third session joining',
    () => incidentsOf('alpha'),
    (b) => b.incidents[0]?.sessionCount === 3,
  );
  assert.equal(joined.total, 1);
  assert.equal(joined.incidents[0].id, alphaIncident);

  await createRule('Naive resume on alpha', 'alpha');
  await receiver.waitFor((r) => r.some((x) => x.json?.kind === 'firing'), 'the firing');
  const firing = receiver.requests.find((x) => x.json?.kind === 'firing')!.json;
  assert.equal(firing.incidentId, alphaIncident);
  // Either instance may lead and send it; its links name the address it serves on.
  assert.ok(
    [app.url, second.url].some((origin) => firing.incidentUrl === `${origin}/incidents/${alphaIncident}`),
    firing.incidentUrl,
  );
  const d = await until(
    'the firing in the timeline',
    () => detail(alphaIncident),
    (b) => b.timeline.some((e: any) => e.source === 'alert'),
  );
  assert.equal((await incidentsOf('alpha')).total, 1, 'the alert joined the incident, it did not open another');
  assert.equal(d.sessions.total, 3);
  assert.deepEqual(d.sessions.items.map((s: any) => s.token).sort(), ['alpha-1', 'alpha-2', 'alpha-3']);
  assert.ok(d.timeline.some((e: any) => e.source === 'activity' && e.kind === 'opened'));
  const page = (await api(app, `/api/v1/incidents/${alphaIncident}?sessionsLimit=2&sessionsOffset=2`)).body;
  assert.equal(page.sessions.items.length, 1);
});

test('acknowledged: its alert changes are stored suppressed and nothing more is sent; resolve, then a recurrence is a regression', async () => {
  const ack = await api(app, `/api/v1/incidents/${alphaIncident}/acknowledge`, { method: 'POST' });
  assert.equal(ack.status, 200, JSON.stringify(ack.body));
  assert.equal(ack.body.incident.status, 'acknowledged');
  assert.equal(ack.body.incident.acknowledgedBy, 'bootstrap admin');
  const sent = receiver.requests.length;
  const rule = (await api(app, '/api/v1/alerts/rules')).body.rules.find((r: any) => r.name === 'Naive resume on alpha');
  // The alert resolves and fires again: both changes belong to the acknowledged incident.
  await api(app, `/api/v1/alerts/rules/${rule.id}`, { method: 'PATCH', body: { enabled: false } });
  await until('the resolved change suppressed', deliveries, (l) => l.filter((x) => x.status === 'suppressed').length >= 1);
  await api(app, `/api/v1/alerts/rules/${rule.id}`, { method: 'PATCH', body: { enabled: true } });
  const suppressed = await until('the second firing suppressed', deliveries, (l) => l.filter((x) => x.status === 'suppressed').length >= 2);
  assert.match(suppressed.find((x) => x.status === 'suppressed').lastError, new RegExp(`incident ${alphaIncident} was acknowledged`));
  assert.equal(receiver.requests.length, sent, 'no notification after the acknowledgement');
  assert.equal(
    (await api(app, `/api/v1/incidents/${alphaIncident}/acknowledge`, { method: 'POST' })).body.error.code,
    'incident_already_acknowledged',
  );

  const resolved = await api(app, `/api/v1/incidents/${alphaIncident}/resolve`, { method: 'POST', body: { note: 'rolled back' } });
  assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
  assert.equal(resolved.body.incident.status, 'resolved');
  const again = await api(app, `/api/v1/incidents/${alphaIncident}/resolve`, { method: 'POST', body: {} });
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, 'incident_resolved');

  // The bug returns: a naive resume after the resolution (postNaiveResume's happen 2 s back).
  await postOldNaiveResume('alpha', 'alpha-4', 200);
  const back = await until(
    'the regression',
    () => detail(alphaIncident),
    (b) => b.incident.status === 'open',
  );
  assert.equal(back.incident.regression, true);
  assert.equal(back.incident.regressions, 1);
  assert.equal(back.incident.acknowledgedBy, null);
  assert.ok(back.timeline.some((e: any) => e.kind === 'regressed'));
  assert.equal((await incidentsOf('alpha')).total, 1, 'the same incident reopened');
});

test('a silence suppresses a notification and counts it; it expires by hand', async () => {
  const created = await api(app, '/api/v1/silences', {
    method: 'POST',
    body: { server: 'beta', reason: 'maintenance <b>', durationSeconds: 3600 },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const silence = created.body.silence;
  assert.equal(silence.state, 'active');
  await createRule('Naive resume on beta', 'beta');
  await postNaiveResume(app, 'beta', SECRETS.beta, 'beta-1');
  const list = await until(
    'the silence counting a suppressed notification',
    async () => (await api(app, '/api/v1/silences?state=active')).body.silences,
    (l: any[]) => l.some((s) => s.id === silence.id && s.suppressed >= 1),
  );
  assert.equal(list.length, 1);
  const row = (await deliveries()).find((x) => x.status === 'suppressed' && x.lastError?.includes(silence.id));
  assert.ok(row, 'the suppressed notification is stored with the silence named');
  assert.ok(!receiver.requests.some((x) => x.json?.server === 'beta'), 'nothing was sent for beta');
  const beta = await until(
    'the beta incident',
    () => incidentsOf('beta'),
    (b) => b.total === 1,
  );
  assert.equal(beta.incidents[0].status, 'open', 'a silence hides notifications, not the incident');

  const expired = await api(app, `/api/v1/silences/${silence.id}`, { method: 'DELETE' });
  assert.equal(expired.status, 200);
  assert.equal(expired.body.silence.state, 'expired');
  assert.equal((await api(app, `/api/v1/silences/${silence.id}`, { method: 'DELETE' })).status, 409);
  assert.equal((await api(app, '/api/v1/silences?state=active')).body.silences.length, 0);
});

test('a quiet incident resolves on its own and reopens as a regression; two instances acknowledging record one', async () => {
  await postOldNaiveResume('gamma', 'gamma-old', 2 * 3_600_000);
  const quiet = await until(
    'the quiet resolution',
    () => incidentsOf('gamma'),
    (b) => b.incidents[0]?.status === 'resolved',
  );
  assert.equal(quiet.incidents[0].resolvedBy, 'doorwatch (quiet period)');
  const id = quiet.incidents[0].id;
  await postOldNaiveResume('gamma', 'gamma-new', 200);
  const back = await until(
    'the regression',
    () => detail(id),
    (b) => b.incident.status === 'open',
  );
  assert.equal(back.incident.regression, true);

  const answers = await Promise.all([app, second].map((a) => api(a, `/api/v1/incidents/${id}/acknowledge`, { method: 'POST' })));
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
  const after = await detail(id);
  assert.equal(after.timeline.filter((e: any) => e.kind === 'acknowledged').length, 1);
});

test('a deadlocks_ongoing rule opens "Deadlocks on delta", and the deadlocked sessions join it with their versions', async () => {
  // Clients waiting 10 and 7 minutes: past the deadlock threshold (10 s by default), ongoing deadlocks.
  await postOldNaiveResume('delta', 'delta-1', 600_000, 'v3.0.0');
  await postOldNaiveResume('delta', 'delta-2', 420_000);
  await until(
    "the naive resumes' incident",
    () => incidentsOf('delta'),
    (b) => b.incidents.some((i: any) => i.kind === 'naive_resume' && i.sessionCount === 2),
  );
  // An hour's window: the measure counts deadlocks that started inside it, and these began 7–10 minutes ago.
  await createRule('Deadlocks on delta', 'delta', 'deadlocks_ongoing', 3600);
  const listed = await until(
    'the deadlock incident with its sessions',
    () => incidentsOf('delta'),
    (b) => b.incidents.some((i: any) => i.kind === 'deadlock' && i.sessionCount === 2),
  );
  const inc = listed.incidents.find((i: any) => i.kind === 'deadlock');
  assert.equal(inc.title, 'Deadlocks on delta');
  assert.deepEqual(inc.versions, ['v3.0.0']);
  const d = await detail(inc.id);
  assert.deepEqual(d.sessions.items.map((s: any) => s.token).sort(), ['delta-1', 'delta-2']);
  assert.equal(d.sessions.items[0].path, '/servers/delta/sessions/delta-2', 'newest evidence first, each to its session page');
  // The incident began when the first client began to wait, not when the rule fired.
  assert.ok(Date.parse(inc.firstSeen) <= Date.now() - 590_000, inc.firstSeen);
  assert.ok(d.timeline.some((e: any) => e.source === 'session' && e.ref === 'delta-1'));
  assert.ok(d.timeline.some((e: any) => e.source === 'alert'));
});

test('notes; unknown ids answer 404; bad input 400', async () => {
  const note = await api(app, `/api/v1/incidents/${alphaIncident}/notes`, {
    method: 'POST',
    body: { text: '<img src=x onerror=alert(1)>' },
  });
  assert.equal(note.status, 201, JSON.stringify(note.body));
  assert.equal(note.body.kind, 'note');
  assert.equal(note.body.actor, 'bootstrap admin');
  assert.ok((await detail(alphaIncident)).timeline.some((e: any) => e.kind === 'note' && e.summary === '<img src=x onerror=alert(1)>'));
  for (const [method, path] of [
    ['GET', '/api/v1/incidents/inc_nope'],
    ['POST', '/api/v1/incidents/inc_nope/acknowledge'],
    ['POST', '/api/v1/incidents/inc_nope/resolve'],
  ] as const) {
    const r = await api(app, path, { method, body: method === 'POST' ? {} : undefined });
    assert.equal(r.status, 404, path);
    assert.equal(r.body.error.code, 'incident_not_found', `${path}: ${JSON.stringify(r.body)}`);
  }
  assert.equal((await api(app, '/api/v1/incidents/inc_nope/notes', { method: 'POST', body: { text: 'x' } })).status, 404);
  assert.equal((await api(app, '/api/v1/silences/sil_nope', { method: 'DELETE' })).status, 404);
  const bad: [string, unknown][] = [
    [`/api/v1/incidents/${alphaIncident}/notes`, { text: '' }],
    [`/api/v1/incidents/${alphaIncident}/notes`, { text: 'x'.repeat(2001) }],
    ['/api/v1/silences', { reason: 'no matcher', durationSeconds: 3600 }],
    ['/api/v1/silences', { server: 'alpha', reason: 'too short', durationSeconds: 10 }],
    ['/api/v1/silences', { server: 'alpha', reason: '', durationSeconds: 3600 }],
  ];
  for (const [path, body] of bad) {
    const r = await api(app, path, { method: 'POST', body });
    assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
    assert.ok(r.body.error.code);
  }
  assert.equal((await api(app, '/api/v1/incidents?status=bogus')).status, 400);
  const unknownRule = await api(app, '/api/v1/silences', { method: 'POST', body: { ruleId: 'nope', reason: 'r', durationSeconds: 3600 } });
  assert.equal(unknownRule.status, 404);
  const totals = (await api(app, '/api/v1/incidents')).body.totals;
  assert.equal(totals.all, totals.open + totals.acknowledged + totals.resolved);
  assert.ok(totals.all >= 3, 'alpha, beta and gamma (the default rules may open more)');
});
