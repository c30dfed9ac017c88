// Versions and deploy annotations through the real HTTP API (both databases): the TypeScript
// reporter sends v1 (refusing) then v2 (naive); the versions endpoint lists both with counts, the
// session list filters by version, the verdict says "naive since v2…", the compare endpoint puts
// them side by side; a CI token (annotate role) posts the deploy and it comes back in its window.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createReporter, type DoorwatchEvent } from '@doorwatch/reporter';
import { generateSecret } from '@/lib/contract/server-secret';
import { startAppServer, TEST_ADMIN_TOKEN, type AppServer } from '../support/app-server';
import { call } from '../support/http';
import { postSigned } from '../support/post-events';

const SERVER = { name: 'versioned-srv', secret: generateSecret() };
let app: AppServer;
let t0: number;
const at = (ms: number) => new Date(t0 + ms).toISOString();

/** A boundary session: refused (v1) or accepted naively (v2). */
function boundary(token: string, base: number, naive: boolean): DoorwatchEvent[] {
  return [
    { id: `${token}-o`, token, type: 'session.opened', at: at(base), data: {} },
    { id: `${token}-u`, token, type: 'upgrade.accepted', at: at(base + 100), data: { eventId: 3 } },
    { id: `${token}-d`, token, type: 'stream.dropped', at: at(base + 150), data: {} },
    { id: `${token}-r`, token, type: 'resume.requested', at: at(base + 200), data: { lastEventId: 3 } },
    naive
      ? { id: `${token}-a`, token, type: 'resume.accepted', at: at(base + 240), data: { replayed: 0 } }
      : { id: `${token}-x`, token, type: 'resume.refused', at: at(base + 250 + (base % 7) * 10), data: {} },
  ];
}

async function send(version: string, events: DoorwatchEvent[]): Promise<void> {
  const errors: string[] = [];
  const reporter = createReporter({
    url: app.url,
    server: SERVER.name,
    secret: SERVER.secret,
    instance: `pod-${version}`,
    version,
    onError: (e) => errors.push(e.code),
  });
  for (const e of events) reporter.report(e);
  await reporter.close();
  assert.deepEqual(errors, []);
}

const get = (path: string) => call(app.url, path, { token: TEST_ADMIN_TOKEN });

before(async () => {
  app = await startAppServer({ env: { DOORWATCH_SERVERS: `${SERVER.name}=${SERVER.secret}` } });
  t0 = Date.now() - 60 * 60_000;
  // v1 refuses at the door (three sessions); v2, reported 3 minutes into its rollout, resumes naively.
  await send('v1.0.0', [...boundary('v1-a', 0, false), ...boundary('v1-b', 60_000, false), ...boundary('v1-c', 120_000, false)]);
  await send('v2.3.1', [
    { id: 'v2-warm-o', token: 'v2-warm', type: 'session.opened', at: at(30 * 60_000), data: {} },
    ...boundary('v2-a', 33 * 60_000, true),
    ...boundary('v2-b', 34 * 60_000, true),
  ]);
});

after(async () => {
  await app?.stop();
});

describe('versions', () => {
  test('the versions endpoint lists both versions with first/last seen and verdict counts, and the change', async () => {
    const r = await get(`/api/v1/servers/${SERVER.name}/versions`);
    assert.equal(r.status, 200, r.text);
    const rows = r.body.versions.map((v: any) => [v.version, v.sessions, v.refusals, v.naiveResumes, v.conflicts]);
    assert.deepEqual(rows, [
      ['v1.0.0', 3, 3, 0, 0],
      ['v2.3.1', 3, 0, 2, 0],
    ]);
    assert.equal(r.body.versions[0].firstSeenAt, at(0));
    assert.equal(r.body.versions[0].lastSeenAt, at(120_000 + 250 + (120_000 % 7) * 10));
    assert.equal(r.body.versions[1].firstSeenAt, at(30 * 60_000));
    assert.equal(r.body.versions[1].firstNaiveResumeAt, at(33 * 60_000 + 240));
    assert.equal(r.body.change.kind, 'became_naive');
    assert.equal(r.body.change.version, 'v2.3.1');
    // The time is HH:MM, with the date in front when it is not today (lib/queries/version-change.ts):
    // a run in the first half hour after midnight UTC reads yesterday's date (clean-clone CI at 00:05).
    const naiveAt = at(33 * 60_000 + 240);
    assert.match(
      r.body.change.text,
      /^naive since v2\.3\.1: first naive resume (\d{4}-\d\d-\d\d )?\d\d:\d\d, 3 minutes after v2\.3\.1 first reported \(v1\.0\.0 refused\)$/,
    );
    assert.ok(r.body.change.text.includes(` ${naiveAt.slice(11, 16)}, `), `${r.body.change.text}: the time of ${naiveAt}`);
  });

  test('the server verdict says since which version it is naive', async () => {
    const r = await get('/api/v1/servers');
    const server = r.body.servers.find((s: any) => s.name === SERVER.name);
    assert.equal(server.verdict, 'naive');
    assert.match(server.verdictText, /; naive since v2\.3\.1: first naive resume/);
    assert.equal(server.versionChange.previousVersion, 'v1.0.0');
  });

  test('sessions record their version and instance, and the list filters by version', async () => {
    const v1 = await get(`/api/v1/sessions?server=${SERVER.name}&version=v1.0.0`);
    assert.equal(v1.status, 200, v1.text);
    assert.deepEqual(v1.body.sessions.map((s: any) => s.token).sort(), ['v1-a', 'v1-b', 'v1-c']);
    assert.ok(v1.body.sessions.every((s: any) => s.version === 'v1.0.0' && s.instance === 'pod-v1.0.0'));
    const both = await get(`/api/v1/sessions?server=${SERVER.name}&version=v1.0.0,v2.3.1`);
    assert.equal(both.body.total, 6);
    const bad = await get(`/api/v1/sessions?version=${encodeURIComponent('<img src=x>')}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_version');
  });

  test('compare puts two versions side by side', async () => {
    const r = await get(`/api/v1/servers/${SERVER.name}/versions/compare?a=v1.0.0&b=v2.3.1`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.a.outcomes, { refused: 3, naive_resume: 0, pending: 0, none: 0 });
    assert.deepEqual(r.body.b.outcomes, { refused: 0, naive_resume: 2, pending: 0, none: 1 });
    assert.equal(r.body.a.refusalLatencyMs.count, 3);
    assert.ok(r.body.a.refusalLatencyMs.p50 >= 50 && r.body.a.refusalLatencyMs.p95 >= r.body.a.refusalLatencyMs.p50);
    assert.equal(r.body.b.refusalLatencyMs.p50, null);
    assert.equal(r.body.a.renegotiation.rate, 0);
    assert.equal(r.body.b.renegotiation.rate, null);
  });

  test('a second version named for a token keeps the first and counts the conflict; bad envelope values are 400 with a code', async () => {
    await send('v9.9.9', [{ id: 'v1-a-late', token: 'v1-a', type: 'session.closed', at: at(200_000), data: {} }]);
    const r = await get(`/api/v1/servers/${SERVER.name}/versions`);
    const late = r.body.versions.find((v: any) => v.version === 'v9.9.9');
    assert.deepEqual([late.sessions, late.conflicts], [0, 1]);
    const detail = await get(`/api/v1/servers/${SERVER.name}/sessions/v1-a`);
    assert.equal(detail.body.session.version, 'v1.0.0');

    const event = { id: 'bad-env', token: 'bad-env', type: 'session.opened', at: at(0), data: {} };
    for (const [field, value, code] of [
      ['version', 'v'.repeat(65), 'invalid_version'],
      ['version', '<img src=x onerror=alert(1)>', 'invalid_version'],
      ['instance', 'pod 1', 'invalid_instance'],
    ] as const) {
      const res = await postSigned(app.url, SERVER.name, SERVER.secret, JSON.stringify({ events: [event], [field]: value }));
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, code);
    }
    // Old senders (no version, no instance) stay valid.
    const old = await postSigned(app.url, SERVER.name, SERVER.secret, JSON.stringify({ events: [event] }));
    assert.equal(old.status, 200, JSON.stringify(old.body));
  });
});

describe('annotations', () => {
  test('a CI token (annotate role) posts a deploy; it comes back in its window; viewers read, only admins delete', async () => {
    const ci = await call(app.url, '/api/v1/operators', {
      method: 'POST',
      token: TEST_ADMIN_TOKEN,
      body: { name: 'ci', role: 'annotate' },
    });
    assert.equal(ci.status, 201, ci.text);
    const time = t0 + 30 * 60_000;
    const posted = await call(app.url, '/api/v1/annotations', {
      method: 'POST',
      token: ci.body.token,
      body: { time, text: 'deployed v2.3.1 to eu-west', tags: ['deploy', 'v2.3.1'], server: SERVER.name },
    });
    assert.equal(posted.status, 201, posted.text);
    assert.equal(posted.body.createdBy, 'ci');
    // The CI token reads nothing.
    assert.equal((await call(app.url, '/api/v1/annotations', { token: ci.body.token })).status, 403);

    const window = `from=${t0}&to=${t0 + 60 * 60_000}`;
    const listed = await get(`/api/v1/annotations?${window}&server=${SERVER.name}`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.annotations.map((a: any) => [a.text, a.tags, a.server, a.time]),
      [['deployed v2.3.1 to eu-west', ['deploy', 'v2.3.1'], SERVER.name, new Date(time).toISOString()]],
    );
    assert.deepEqual(
      listed.body.versions.filter((v: any) => v.server === SERVER.name).map((v: any) => v.version),
      // v9.9.9 was first reported (for a session v1.0.0 kept) inside the window too.
      ['v1.0.0', 'v9.9.9', 'v2.3.1'],
    );
    assert.equal((await get(`/api/v1/annotations?${window}&tags=deploy,v2.3.1`)).body.annotations.length, 1);
    assert.equal((await get(`/api/v1/annotations?${window}&tags=rollback`)).body.annotations.length, 0);
    assert.equal((await get(`/api/v1/annotations?from=${t0 + 40 * 60_000}&to=${t0 + 50 * 60_000}`)).body.annotations.length, 0);

    for (const body of [
      { text: 'x'.repeat(1001) },
      { text: '' },
      { text: 'ok', tags: ['has space'] },
      { text: 'ok', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      { text: 'ok', server: 'Not A Server' },
      { text: 'ok', time: 2000, timeEnd: 1000 },
      { text: 'ok', extra: 1 },
    ]) {
      const bad = await call(app.url, '/api/v1/annotations', { method: 'POST', token: ci.body.token, body });
      assert.equal(bad.status, 400, `${JSON.stringify(body).slice(0, 80)} → ${bad.text}`);
      assert.equal(bad.body.error.code, 'invalid_body');
    }
    const badTags = await get(`/api/v1/annotations?tags=${encodeURIComponent('a"b')}`);
    assert.deepEqual([badTags.status, badTags.body.error.code], [400, 'invalid_tags']);

    assert.equal((await call(app.url, `/api/v1/annotations/${posted.body.id}`, { method: 'DELETE', token: ci.body.token })).status, 403);
    assert.equal((await call(app.url, `/api/v1/annotations/${posted.body.id}`, { method: 'DELETE', token: TEST_ADMIN_TOKEN })).status, 204);
    const gone = await call(app.url, `/api/v1/annotations/${posted.body.id}`, { method: 'DELETE', token: TEST_ADMIN_TOKEN });
    assert.deepEqual([gone.status, gone.body.error.code], [404, 'annotation_not_found']);
  });
});

describe('stats by version', () => {
  const SPLIT_COUNTS = [
    'sessions',
    'boundary',
    'refused',
    'naiveResumes',
    'dualNegotiations',
    'burnedTokenReuses',
    'renegotiations',
  ] as const;

  test('split=version adds up to the totals (the version-less sessions as null); version= keeps only the named ones', async () => {
    // A session whose reporter names no version: it belongs to the null entry.
    const { postEvents } = await import('../support/post-events');
    assert.equal((await postEvents(app.url, SERVER.name, SERVER.secret, boundary('nov-a', 40 * 60_000, false))).status, 200);
    const range = `server=${SERVER.name}&from=${new Date(t0 - 60_000).toISOString()}&to=${new Date(t0 + 50 * 60_000).toISOString()}&bucket=5m`;
    const split = await get(`/api/v1/stats?${range}&split=version`);
    assert.equal(split.status, 200, split.text);
    const s = split.body;
    const byVersion = new Map<string | null, any>(s.byVersion.map((v: any) => [v.version, v]));
    assert.deepEqual([...byVersion.keys()].sort(), [null, 'v1.0.0', 'v2.3.1'].sort());
    for (const k of SPLIT_COUNTS)
      assert.equal(
        s.byVersion.reduce((sum: number, v: any) => sum + v[k], 0),
        k === 'renegotiations' ? s.renegotiations.count : s[k],
        k,
      );
    assert.equal(
      s.byVersion.reduce((sum: number, v: any) => sum + v.deadlocks, 0),
      s.deadlocks.total,
    );
    const v1 = byVersion.get('v1.0.0');
    assert.deepEqual([v1.sessions, v1.boundary, v1.refused, v1.naiveResumes], [3, 3, 3, 0]);
    assert.equal(v1.refusalLatencyMs.count, 3);
    assert.ok(v1.refusalLatencyMs.min <= v1.refusalLatencyMs.p50 && v1.refusalLatencyMs.p50 <= v1.refusalLatencyMs.max);
    const v2 = byVersion.get('v2.3.1');
    // The warm-up session and two naive resumes, unended for ~25 minutes: ongoing deadlocks by now.
    assert.deepEqual([v2.sessions, v2.boundary, v2.refused, v2.naiveResumes, v2.deadlocks, v2.ongoingDeadlocks], [3, 2, 0, 2, 2, 2]);
    assert.equal(v2.refusalLatencyMs.count, 0);
    // nov-a, and bad-env (the old-sender batch of the envelope test above).
    assert.equal(byVersion.get(null).sessions, 2);
    assert.equal(byVersion.get(null).refused, 1);
    // The named versions come first (most boundary entries first), and each series adds up to its entry.
    assert.equal(s.byVersion[0].version, 'v1.0.0');
    for (const v of s.byVersion)
      for (const k of ['boundary', 'refused', 'naiveResumes', 'deadlocks', 'renegotiations'])
        assert.equal(
          v.series.reduce((sum: number, b: any) => sum + b[k], 0),
          v[k],
          `${v.version} ${k}`,
        );
    assert.equal(s.byVersion[0].series.length, s.series.length);

    const only = await get(`/api/v1/stats?${range}&version=v1.0.0`);
    assert.equal(only.status, 200, only.text);
    assert.deepEqual(only.body.byVersion, [v1]);
    assert.equal(only.body.boundary, s.boundary, 'the range totals stay those of every version');

    const bad = await get(`/api/v1/stats?version=${encodeURIComponent('<img src=x>')}`);
    assert.equal(bad.status, 400, bad.text);
    assert.equal(typeof bad.body.error.code, 'string');
    const many = await get(`/api/v1/stats?${Array.from({ length: 11 }, (_, i) => `version=v${i}`).join('&')}`);
    assert.equal(many.status, 400, many.text);
  });
});
