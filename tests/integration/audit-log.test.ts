// The audit log end to end on the built app (both databases): every kind of admin change leaves one
// entry naming the actor, with before and after; planted secrets appear neither in the stored rows
// nor in the API answer nor in the exports; viewers are refused; filters, paging and export agree;
// a change that rolls back leaves no entry; old entries go by their own retention setting.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { openDb } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { recordAudit } from '@/lib/store/audit-log';
import { pruneAuditLog } from '@/lib/retention/prune-events';

let app: AppServer;
const DAY = 86_400_000;
const PROBE_CREDENTIAL = 'Bearer PLANTED-probe-credential-7f3a';
const URL_SECRET = 'PLANTEDslackPathSecret9c1';
const QUERY_SECRET = 'PLANTEDquerySecret42';
const secretsSeen: string[] = [PROBE_CREDENTIAL, 'PLANTED-probe-credential-7f3a', URL_SECRET, QUERY_SECRET];

async function api(path: string, init: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.token === null ? {} : { authorization: `Bearer ${init.token ?? ADMIN}` }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // CSV, NDJSON or empty
  }
  return { status: res.status, body, text, headers: res.headers };
}

async function ok(path: string, init: Parameters<typeof api>[1], status: number) {
  const res = await api(path, init);
  assert.equal(res.status, status, `${init?.method ?? 'GET'} ${path}: ${res.text}`);
  return res;
}

async function entries(query = ''): Promise<any[]> {
  return (await ok(`/api/v1/audit?limit=500${query}`, {}, 200)).body.entries;
}

before(async () => {
  app = await startAppServer();
});
after(async () => {
  await app?.stop();
});

test('every admin change is audited with actor, before and after; no planted secret is stored or answered', async () => {
  const op = (await ok('/api/v1/operators', { method: 'POST', body: { name: 'vera', role: 'viewer' } }, 201)).body;
  secretsSeen.push(op.token);
  const server = (await ok('/api/v1/admin/servers', { method: 'POST', body: { name: 'aud-srv' } }, 201)).body;
  secretsSeen.push(server.secret);
  const rotated = await ok('/api/v1/admin/servers/aud-srv/rotate', { method: 'POST', body: { graceSeconds: 60 } }, 200);
  secretsSeen.push(rotated.body.secret);
  const cp = (
    await ok(
      '/api/v1/alerts/contact-points',
      { method: 'POST', body: { name: 'pager', url: `https://hooks.example.test/services/T0/${URL_SECRET}?token=${QUERY_SECRET}` } },
      201,
    )
  ).body;
  secretsSeen.push(cp.secret);
  const rule = (
    await ok(
      '/api/v1/alerts/rules',
      {
        method: 'POST',
        body: {
          name: 'naive',
          measure: 'naive_resumes',
          comparison: 'gt',
          threshold: 0,
          windowSeconds: 300,
          forSeconds: 0,
          contactPointIds: [cp.contactPoint.id],
        },
      },
      201,
    )
  ).body.rule;
  await ok(`/api/v1/alerts/rules/${rule.id}`, { method: 'PATCH', body: { threshold: 3 } }, 200);
  const probeBody = {
    url: 'http://127.0.0.1:9/mcp',
    credential: { header: 'Authorization', value: PROBE_CREDENTIAL },
    intervalSeconds: 3600,
  };
  await ok('/api/v1/admin/servers/aud-srv/probe', { method: 'PUT', body: probeBody }, 200);
  await ok('/api/v1/admin/servers/aud-srv/probe', { method: 'PUT', body: { ...probeBody, intervalSeconds: 7200 } }, 200);
  await ok('/api/v1/admin/servers/aud-srv/probe', { method: 'DELETE' }, 204);
  const silence = (
    await ok('/api/v1/silences', { method: 'POST', body: { server: 'aud-srv', reason: 'maintenance', durationSeconds: 600 } }, 201)
  ).body.silence;
  await ok(`/api/v1/silences/${silence.id}`, { method: 'DELETE' }, 200);
  const now = Date.now();
  await app.query(
    `INSERT INTO "Incident" ("id", "server", "kind", "status", "firstSeenAt", "lastSeenAt", "openedAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ['inc_audit', 'aud-srv', 'naive_resume', 'open', now, now, now],
  );
  await ok('/api/v1/incidents/inc_audit/acknowledge', { method: 'POST' }, 200);
  await ok('/api/v1/incidents/inc_audit/notes', { method: 'POST', body: { text: 'looking' } }, 201);
  await ok('/api/v1/incidents/inc_audit/resolve', { method: 'POST', body: { note: 'fixed' } }, 200);
  const annotation = (await ok('/api/v1/annotations', { method: 'POST', body: { text: 'deploy v2' } }, 201)).body;
  await ok(`/api/v1/annotations/${annotation.annotation?.id ?? annotation.id}`, { method: 'DELETE' }, 204);
  await ok(`/api/v1/alerts/rules/${rule.id}`, { method: 'DELETE' }, 204);
  await ok(`/api/v1/alerts/contact-points/${cp.contactPoint.id}`, { method: 'DELETE' }, 204);
  const deleted = await ok('/api/v1/admin/servers/aud-srv', { method: 'DELETE' }, 204);
  await ok(`/api/v1/operators/${op.operator.id}`, { method: 'DELETE' }, 200);

  const all = await entries();
  const seen = new Set(all.map((e) => `${e.entityType}:${e.action}`));
  const expected = [
    'operator:create',
    'operator:revoke',
    'server:create',
    'server_secret:rotate',
    'server:delete',
    'contact_point:create',
    'contact_point:delete',
    'alert_rule:create',
    'alert_rule:update',
    'alert_rule:delete',
    'probe_target:create',
    'probe_target:update',
    'probe_target:delete',
    'silence:create',
    'silence:expire',
    'incident:acknowledge',
    'incident:note',
    'incident:resolve',
    'annotation:create',
    'annotation:delete',
  ];
  for (const k of expected) assert.ok(seen.has(k), `no ${k} entry: ${[...seen].join(', ')}`);
  assert.equal(all.length, expected.length, 'one entry per change');
  for (const e of all) assert.deepEqual(e.actor, { name: 'bootstrap admin', kind: 'token', id: 'bootstrap-admin' });

  const byKey = (k: string) => all.find((e) => `${e.entityType}:${e.action}` === k);
  assert.equal(byKey('alert_rule:update').before.threshold, 0);
  assert.equal(byKey('alert_rule:update').after.threshold, 3);
  assert.equal(byKey('probe_target:update').before.intervalMs, 3_600_000);
  assert.equal(byKey('probe_target:update').after.credentialSet, true);
  assert.equal(byKey('incident:acknowledge').before.status, 'open');
  assert.equal(byKey('incident:acknowledge').after.status, 'acknowledged');
  assert.equal(byKey('operator:revoke').before.revokedAt, null);
  assert.notEqual(byKey('operator:revoke').after.revokedAt, null);
  assert.equal(byKey('server:create').before, null);
  assert.equal(byKey('server:delete').after, null);
  assert.equal(byKey('server_secret:rotate').after.keyring.length, 2, 'the rotation shows both secrets by id, valid during the grace');
  assert.equal(byKey('server:delete').requestId, deleted.headers.get('x-request-id'));
  assert.match(byKey('contact_point:create').after.url, /^https:\/\/hooks\.example\.test\/… \(sha256 [0-9a-f]{12}\)$/);

  const stored = JSON.stringify(await app.query('SELECT * FROM "AuditEntry"'));
  const answered = JSON.stringify(all);
  const csv = (await ok('/api/v1/audit?format=csv', {}, 200)).text;
  const ndjson = (await ok('/api/v1/audit?format=ndjson', {}, 200)).text;
  for (const secret of secretsSeen) {
    for (const [where, text] of Object.entries({ stored, answered, csv, ndjson })) {
      assert.ok(!text.includes(secret), `${secret.slice(0, 14)}… found in the ${where} audit log`);
    }
  }
});

test('a browser session is audited as one; viewers and anonymous callers are refused', async () => {
  const viewer = (await ok('/api/v1/operators', { method: 'POST', body: { name: 'watcher', role: 'viewer' } }, 201)).body.token;
  assert.equal((await api('/api/v1/audit', { token: viewer })).status, 403);
  assert.equal((await api('/api/v1/audit?format=csv', { token: viewer })).status, 403);
  assert.equal((await api('/api/v1/audit', { token: null })).status, 401);

  const login = await fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ token: ADMIN }),
  });
  assert.equal(login.status, 200);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const made = await api('/api/v1/silences', {
    method: 'POST',
    token: null,
    headers: { cookie, origin: app.url },
    body: { server: 'edge', reason: 'by browser', durationSeconds: 60 },
  });
  assert.equal(made.status, 201, made.text);
  const [entry] = await entries(`&entityType=silence&entityId=${made.body.silence.id}`);
  assert.equal(entry.actor.kind, 'session');
  assert.equal(entry.actor.name, 'bootstrap admin');
});

test('filters, cursor paging and both exports answer the same set', async () => {
  const all = await entries();
  assert.ok(all.length >= 10);
  const sorted = [...all].sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id));
  assert.deepEqual(
    all.map((e) => e.id),
    sorted.map((e) => e.id),
    'newest first',
  );

  const paged: string[] = [];
  let cursor: string | null = null;
  do {
    const res: any = (await ok(`/api/v1/audit?limit=3${cursor ? `&cursor=${cursor}` : ''}`, {}, 200)).body;
    assert.ok(res.entries.length <= 3);
    paged.push(...res.entries.map((e: any) => e.id));
    cursor = res.nextCursor;
  } while (cursor);
  assert.deepEqual(
    paged,
    all.map((e) => e.id),
    'pages walk the whole set once',
  );
  assert.equal((await api('/api/v1/audit?cursor=bogus!')).body.error.code, 'invalid_cursor');
  assert.equal((await api('/api/v1/audit?entityType=planet')).status, 400);

  const rules = await entries('&entityType=alert_rule');
  assert.deepEqual([...new Set(rules.map((e) => e.entityType))], ['alert_rule']);
  assert.equal(rules.length, 3);
  const ruleId = rules[0].entityId;
  assert.deepEqual(
    (await entries(`&entityId=${ruleId}`)).map((e) => e.id),
    rules.map((e) => e.id),
  );
  assert.deepEqual(
    (await entries('&action=rotate')).map((e) => e.entityType),
    ['server_secret'],
  );
  assert.equal((await entries('&actor=bootstrap-admin')).length, all.length, 'by operator id');
  assert.equal((await entries('&actor=someone-else')).length, 0);
  const middle = all[Math.floor(all.length / 2)].at;
  const older = await entries(`&to=${encodeURIComponent(middle)}`);
  const newer = await entries(`&from=${encodeURIComponent(middle)}`);
  assert.equal(older.length + newer.length, all.length, 'from/to split the set');
  assert.equal((await api('/api/v1/audit?from=now&to=now-1h')).body.error.code, 'invalid_time_range');

  const csv = await ok('/api/v1/audit?format=csv&entityType=alert_rule', {}, 200);
  assert.match(csv.headers.get('content-type')!, /^text\/csv/);
  assert.match(csv.headers.get('content-disposition')!, /attachment; filename="doorwatch-audit-.*\.csv"/);
  const lines = csv.text.trim().split('\r\n');
  assert.equal(lines[0], 'id,at,actorName,actorKind,actorId,action,entityType,entityId,before,after,requestId');
  assert.equal(lines.length - 1, rules.length);
  const nd = await ok('/api/v1/audit?format=ndjson', {}, 200);
  assert.match(nd.headers.get('content-type')!, /^application\/x-ndjson/);
  const exported = nd.text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(exported, all, 'the NDJSON export is the list, whole');
});

test('a change that rolls back leaves no entry; a refused one neither; pruning keeps its own retention', async () => {
  const db = openDb(readDatabaseConfig({ DATABASE_URL: app.databaseUrl }));
  try {
    const count = async () => Number((await app.query<{ n: number }>('SELECT COUNT(*) AS "n" FROM "AuditEntry"'))[0].n);
    const before = await count();
    const ctx = { actor: { kind: 'cli' as const, name: 'test', id: null }, requestId: null };
    await assert.rejects(
      db.sql.transaction(async (tx) => {
        await recordAudit(tx, ctx, { action: 'create', entityType: 'server', entityId: 'ghost', before: null, after: { name: 'ghost' } });
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    assert.equal(await count(), before, 'rolled back with its change');
    assert.equal((await api('/api/v1/incidents/inc_audit/acknowledge', { method: 'POST' })).status, 409);
    assert.equal(await count(), before, 'a refused change writes nothing');

    const now = Date.now();
    for (const [i, age] of [400, 366, 10].entries()) {
      await recordAudit(
        db.sql,
        ctx,
        { action: 'update', entityType: 'server', entityId: `old-${i}`, before: null, after: null },
        now - age * DAY,
      );
    }
    assert.equal((await pruneAuditLog(db.sql, { days: 0, now })).deleted, 0, '0 keeps everything');
    const pruned = await pruneAuditLog(db.sql, { days: 365, now, batchSize: 1, pauseMs: 0 });
    assert.equal(pruned.deleted, 2);
    const left = (await app.query<{ entityId: string }>('SELECT "entityId" FROM "AuditEntry" WHERE "entityId" LIKE ?', ['old-%'])).map(
      (r) => r.entityId,
    );
    assert.deepEqual(left, ['old-2']);
    assert.equal(await count(), before + 1);
  } finally {
    await db.close();
  }
});
