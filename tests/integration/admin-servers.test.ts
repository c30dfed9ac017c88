// Server registration through the admin API, end to end with signed ingest.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { postEvents, postSigned } from '../support/post-events';
import { randomBytes } from 'node:crypto';

let app: AppServer;

const api = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${app.url}${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.headers ?? {}),
    },
  });

const event = (id: string) => ({ id, token: 'adm-tok', type: 'session.opened', at: new Date().toISOString(), data: {} });

before(async () => {
  app = await startAppServer();
});
after(async () => {
  await app?.stop();
});

test('an admin registers a server, the secret signs ingest, rotation and removal take effect', async () => {
  const created = await api('/api/v1/admin/servers', { method: 'POST', token: ADMIN, body: JSON.stringify({ name: 'edge-1' }) });
  assert.equal(created.status, 201);
  const { secret } = await created.json();
  assert.match(secret, /^whsec_/);
  assert.equal((await postEvents(app.url, 'edge-1', secret, [event('a1')])).status, 200);

  const again = await api('/api/v1/admin/servers', { method: 'POST', token: ADMIN, body: JSON.stringify({ name: 'edge-1' }) });
  assert.equal(again.status, 409);
  assert.equal((await again.json()).error.code, 'server_exists');

  const bad = await api('/api/v1/admin/servers', { method: 'POST', token: ADMIN, body: JSON.stringify({ name: 'Edge 1' }) });
  assert.equal(bad.status, 400);

  const rotated = await api('/api/v1/admin/servers/edge-1/rotate', {
    method: 'POST',
    token: ADMIN,
    body: JSON.stringify({ graceSeconds: 600 }),
  });
  assert.equal(rotated.status, 200);
  const r = await rotated.json();
  assert.notEqual(r.secret, secret);
  assert.equal((await postEvents(app.url, 'edge-1', r.secret, [event('a2')])).status, 200);
  assert.equal((await postEvents(app.url, 'edge-1', secret, [event('a3')])).status, 200, 'old secret valid during grace');

  const list = await (await api('/api/v1/admin/servers', { token: ADMIN })).json();
  const edge = list.servers.find((s: any) => s.name === 'edge-1');
  assert.equal(edge.secrets.length, 2);
  assert.ok(!JSON.stringify(list).includes('whsec_'), 'secrets are never listed');

  assert.equal((await api('/api/v1/admin/servers/edge-1', { method: 'DELETE', token: ADMIN })).status, 204);
  assert.equal((await api('/api/v1/admin/servers/edge-1', { method: 'DELETE', token: ADMIN })).status, 404);
});

test('admin server routes refuse anonymous callers and viewers', async () => {
  assert.equal((await api('/api/v1/admin/servers')).status, 401);
  const made = await api('/api/v1/operators', { method: 'POST', token: ADMIN, body: JSON.stringify({ name: 'watcher', role: 'viewer' }) });
  assert.equal(made.status, 201);
  const viewer = (await made.json()).token;
  const res = await api('/api/v1/admin/servers', { method: 'POST', token: viewer, body: JSON.stringify({ name: 'sneaky' }) });
  assert.equal(res.status, 403);
  assert.equal((await res.json()).error.code, 'forbidden');
});

test('dead letters: listed for operators with what was sent, filtered, paginated, counted by code, whole on their own', async () => {
  const { secret } = await (
    await api('/api/v1/admin/servers', { method: 'POST', token: ADMIN, body: JSON.stringify({ name: 'sloppy' }) })
  ).json();
  const since = new Date(Date.now() - 1000).toISOString();
  assert.equal((await postSigned(app.url, 'sloppy', secret, 'not json at all')).status, 400);
  const big = `{"events": ${'x'.repeat(10_000)}`;
  assert.equal((await postSigned(app.url, 'sloppy', secret, big)).status, 400);
  const bad = (i: number) => ({ id: `bad-${i}`, token: 't', type: 'nope', at: new Date().toISOString() });
  const res = await postEvents(app.url, 'sloppy', secret, [
    event('ok-1'),
    ...Array.from({ length: 5 }, (_, i) => bad(i)),
    { id: 'bad-f', token: 't', type: 'session.opened', at: 'yesterday', data: {} },
  ]);
  assert.equal(res.status, 207);

  const list = async (query: string) => api(`/api/v1/admin/dead-letters${query}`, { token: ADMIN });
  const all = await (await list('?server=sloppy')).json();
  assert.equal(all.total, 8);
  const stats = await (await api('/api/v1/stats?server=sloppy&from=now-1h', { token: ADMIN })).json();
  assert.equal(stats.deadLetters, 8, 'the overview counts them too');
  assert.equal(stats.events, 1, 'and only the valid event as an event');
  assert.deepEqual(all.byCode, [
    { code: 'invalid_type', count: 5 },
    { code: 'invalid_body', count: 2 },
    { code: 'invalid_field', count: 1 },
  ]);
  assert.ok(all.deadLetters.some((l: any) => l.payload === 'not json at all' && !l.payloadTruncated && l.eventIndex === null));
  const typed = all.deadLetters.find((l: any) => l.eventId === 'bad-3');
  assert.deepEqual([typed.code, typed.eventIndex, typed.server], ['invalid_type', 4, 'sloppy']);
  assert.equal(JSON.parse(typed.payload).type, 'nope', 'the event as sent');

  // A large refused body: a preview in the list, all of it on its own.
  const long = all.deadLetters.find((l: any) => l.payloadChars === big.length);
  assert.ok(long.payloadTruncated && long.payload.length === 4096 && big.startsWith(long.payload));
  const whole = await (await list(`/${long.id}`)).json();
  assert.equal(whole.deadLetter.payload, big);
  assert.equal(whole.deadLetter.payloadTruncated, false);
  const missing = await list('/00000000-0000-0000-0000-000000000000');
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error.code, 'dead_letter_not_found');

  // Keyset pages: newest first, no gaps, no repeats; the code filter narrows the page, not the counts.
  const seen: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const page: any = await (await list(`?server=sloppy&limit=3${cursor ? `&cursor=${cursor}` : ''}`)).json();
    seen.push(...page.deadLetters.map((l: any) => l.id));
    cursor = page.nextCursor;
  }
  assert.deepEqual(
    seen,
    all.deadLetters.map((l: any) => l.id),
  );
  const times = all.deadLetters.map((l: any) => l.receivedAt);
  assert.deepEqual(times, [...times].sort().reverse());
  const onlyType = await (await list('?server=sloppy&code=invalid_type,invalid_field')).json();
  assert.equal(onlyType.deadLetters.length, 6);
  // The total follows the code filter; totalInRange (and byCode) keep every code of the range.
  assert.equal(onlyType.total, 6);
  assert.equal(onlyType.totalInRange, 8);
  assert.equal((await list(`?server=sloppy&from=${encodeURIComponent(since)}&to=now-1h`)).status, 400);
  assert.equal((await (await list(`?server=sloppy&to=${encodeURIComponent(since)}`)).json()).total, 0);

  for (const [query, code] of [
    ['?limit=0', 'invalid_limit'],
    ['?code=DROP%20TABLE', 'invalid_code'],
    ['?cursor=nope', 'invalid_cursor'],
    ['?from=yesterday', 'invalid_time_range'],
  ]) {
    const r = await list(query);
    assert.equal(r.status, 400, query);
    assert.equal((await r.json()).error.code, code, query);
  }
  assert.equal((await api('/api/v1/admin/dead-letters')).status, 401, 'no token');
  assert.equal((await api(`/api/v1/admin/dead-letters/${long.id}`)).status, 401, 'no token');
});

test('with DOORWATCH_SECRET_KEY, webhook secrets are sealed at rest and still verify', async () => {
  const provisioned = `whsec_${randomBytes(32).toString('base64')}`;
  const sealed = await startAppServer({
    env: { DOORWATCH_SECRET_KEY: randomBytes(32).toString('base64'), DOORWATCH_SERVERS: `cfg-1=${provisioned}` },
  });
  try {
    const res = await fetch(`${sealed.url}/api/v1/admin/servers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ name: 'api-1' }),
    });
    assert.equal(res.status, 201);
    const { secret } = await res.json();
    assert.equal((await postEvents(sealed.url, 'api-1', secret, [event('sealed-1')])).status, 200);
    assert.equal((await postEvents(sealed.url, 'cfg-1', provisioned, [event('sealed-2')])).status, 200);
    assert.equal((await postEvents(sealed.url, 'cfg-1', secret, [event('sealed-3')])).status, 401);
    const stored = await sealed.query<{ secret: string }>('SELECT "secret" FROM "ServerSecret"');
    assert.equal(stored.length, 2);
    for (const row of stored) {
      assert.match(row.secret, /^dwsealed:v1:/);
      assert.ok(!row.secret.includes(secret.slice(6)) && !row.secret.includes(provisioned.slice(6)), 'no secret in clear');
    }
  } finally {
    await sealed.stop();
  }
});
