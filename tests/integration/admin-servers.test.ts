// Server registration through the admin API, end to end with signed ingest.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents, postSigned } from '../support/post-events';

const ADMIN = 'dw_test_admin_token_0123456789abcdef';
let app: AppServer;

const api = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${app.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.headers ?? {}) },
  });

const event = (id: string) => ({ id, token: 'adm-tok', type: 'session.opened', at: new Date().toISOString(), data: {} });

before(async () => { app = await startAppServer(); });
after(async () => { await app?.stop(); });

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

  const rotated = await api('/api/v1/admin/servers/edge-1/rotate', { method: 'POST', token: ADMIN, body: JSON.stringify({ graceSeconds: 600 }) });
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

test('dead letters are listed for operators with what was sent', async () => {
  const { secret } = await (await api('/api/v1/admin/servers', { method: 'POST', token: ADMIN, body: JSON.stringify({ name: 'sloppy' }) })).json();
  assert.equal((await postSigned(app.url, 'sloppy', secret, 'not json at all')).status, 400);
  const res = await postEvents(app.url, 'sloppy', secret, [event('ok-1'), { id: 'bad-1', token: 't', type: 'nope', at: new Date().toISOString() }]);
  assert.equal(res.status, 207);
  const letters = (await (await api('/api/v1/admin/dead-letters?server=sloppy', { token: ADMIN })).json()).deadLetters;
  assert.deepEqual(letters.map((l: any) => l.code).sort(), ['invalid_body', 'invalid_type']);
  assert.ok(letters.some((l: any) => l.payload === 'not json at all'));
  assert.equal((await api('/api/v1/admin/dead-letters?limit=0', { token: ADMIN })).status, 400);
});
