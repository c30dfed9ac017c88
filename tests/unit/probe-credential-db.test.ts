// A probe credential stored in clear (no DOORWATCH_SECRET_KEY when it was set) is said so: in the
// target's view (the admin's PUT answer, the history API, the UI) and at start-up, which seals it
// once a key is set. SQLite and PostgreSQL (DOORWATCH_TEST_DATABASE).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { reloadSettings } from '@/lib/config/settings';
import { probeCredential, readProbeTarget, sealProbeCredentials, upsertProbeTarget } from '@/lib/store/probe-targets';
import { toProbeTargetView } from '@/lib/queries/probe-history';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { addServer } from '@/lib/store/servers/server-registry';

const saved = process.env.DOORWATCH_SECRET_KEY;
const database = migratedDatabaseForFile(async (db) => {
  await addServer(db, 'probed');
});
after(() => {
  if (saved === undefined) delete process.env.DOORWATCH_SECRET_KEY;
  else process.env.DOORWATCH_SECRET_KEY = saved;
  reloadSettings();
});

test('a credential kept in clear is flagged, then sealed at start-up once a key is set', async () => {
  const db = database();
  delete process.env.DOORWATCH_SECRET_KEY;
  reloadSettings();
  const input = {
    url: 'http://127.0.0.1:1/mcp',
    credential: { header: 'X-Key', value: 'k-secret-1' },
    intervalMs: 300_000,
    enabled: true,
    stepTimeoutMs: 20_000,
  };
  const stored = await upsertProbeTarget(db.sql, 'probed', input, Date.now());
  assert.match(toProbeTargetView(stored).credentialWarning ?? '', /stored unencrypted: set DOORWATCH_SECRET_KEY/);
  assert.deepEqual(await sealProbeCredentials(db.sql), { sealed: 0, inClear: 1 });

  process.env.DOORWATCH_SECRET_KEY = randomBytes(32).toString('base64');
  reloadSettings();
  assert.deepEqual(await sealProbeCredentials(db.sql), { sealed: 1, inClear: 0 });
  const after = (await readProbeTarget(db.sql, 'probed'))!;
  assert.equal(toProbeTargetView(after).credentialWarning, null);
  assert.deepEqual(await probeCredential(db.sql, 'probed'), { header: 'X-Key', value: 'k-secret-1' }, 'still opens');
  assert.deepEqual(await sealProbeCredentials(db.sql), { sealed: 0, inClear: 0 });
});
