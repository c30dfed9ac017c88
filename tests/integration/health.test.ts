import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer } from '../support/app-server';

let app: AppServer;
before(async () => {
  app = await startAppServer();
});
after(async () => {
  await app?.stop();
});

test('health answers with a reachable database and the migrated schema is in place', async () => {
  const res = await fetch(`${app.url}/api/health`);
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.status, 'ok');
  assert.equal(body.database.provider, app.provider);
  assert.equal(body.database.reachable, true);
  const names = await app.query<{ migration_name: string; finished_at: unknown }>(
    'SELECT migration_name, finished_at FROM _prisma_migrations',
  );
  assert.ok(names.length >= 1);
  assert.ok(names.every((n) => n.finished_at !== null));
});

test('an idle keep-alive connection outlives Node’s default 5 s, so a balancer never reuses a closed one', async () => {
  const { connect } = await import('node:net');
  const port = Number(new URL(app.url).port);
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => (received += d.toString('latin1')));
  const responses = () => (received.match(/^HTTP\/1\.1 200/gm) ?? []).length;
  const ask = () => socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
  const until = async (n: number) => {
    for (let i = 0; i < 100 && responses() < n; i++) await new Promise((r) => setTimeout(r, 50));
  };
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    ask();
    await until(1);
    assert.equal(responses(), 1);
    await new Promise((r) => setTimeout(r, 6_000));
    assert.equal(socket.readyState, 'open', 'the server kept the idle connection');
    ask();
    await until(2);
    assert.equal(responses(), 2, 'the same connection answers again');
  } finally {
    socket.destroy();
  }
});
