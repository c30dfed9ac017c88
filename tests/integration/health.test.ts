import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { startAppServer, type AppServer } from '../support/app-server';

let app: AppServer;
before(async () => { app = await startAppServer(); });
after(async () => { await app?.stop(); });

test('health answers with a reachable database and the migrated schema is in place', async () => {
  const res = await fetch(`${app.url}/api/health`);
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.status, 'ok');
  assert.equal(body.database.provider, 'sqlite');
  assert.equal(body.database.reachable, true);
  const db = new Database(app.databaseUrl.slice('file:'.length), { readonly: true });
  const names = db.prepare("SELECT migration_name, finished_at FROM _prisma_migrations").all() as { migration_name: string; finished_at: string | null }[];
  db.close();
  assert.ok(names.length >= 1);
  assert.ok(names.every((n) => n.finished_at !== null));
});
