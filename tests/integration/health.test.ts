import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer } from '../support/app-server';

let app: AppServer;
before(async () => { app = await startAppServer(); });
after(async () => { await app?.stop(); });

test('health answers with a reachable database and the migrated schema is in place', async () => {
  const res = await fetch(`${app.url}/api/health`);
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.status, 'ok');
  assert.equal(body.database.provider, app.provider);
  assert.equal(body.database.reachable, true);
  const names = await app.query<{ migration_name: string; finished_at: unknown }>('SELECT migration_name, finished_at FROM _prisma_migrations');
  assert.ok(names.length >= 1);
  assert.ok(names.every((n) => n.finished_at !== null));
});
