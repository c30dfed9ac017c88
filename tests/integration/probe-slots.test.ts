// One run per probe schedule slot, whoever thinks it leads: two instances' schedulers (two
// database handles, as a leader that lost its lease mid-pass and the one that took over) find
// the same target due at once, and the probed server sees one run, and one run is stored.
// SQLite and PostgreSQL (DOORWATCH_TEST_DATABASE).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { reloadSettings } from '@/lib/config/settings';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { addServer } from '@/lib/store/servers/server-registry';
import { readProbeTarget, upsertProbeTarget } from '@/lib/store/probe-targets';
import { runDueProbes } from '@/lib/probes/probe-schedule';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startCountingDoor, type CountingDoor } from '../support/counting-door';

let testDb: TestDatabase;
let first: Db;
let second: Db;
let door: CountingDoor;
const savedAllow = process.env.DOORWATCH_PROBE_ALLOW;

before(async () => {
  process.env.DOORWATCH_PROBE_ALLOW = 'loopback';
  reloadSettings();
  testDb = await createTestDatabase();
  const config = readDatabaseConfig({ DATABASE_URL: testDb.url });
  await runMigrations(config);
  first = openDb(config);
  second = openDb(config);
  door = await startCountingDoor(100);
});
after(async () => {
  if (savedAllow === undefined) delete process.env.DOORWATCH_PROBE_ALLOW;
  else process.env.DOORWATCH_PROBE_ALLOW = savedAllow;
  reloadSettings();
  await door?.close();
  await first?.close();
  await second?.close();
  await testDb?.drop();
});

test('two schedulers that find one target due run it once: the first to claim the slot', async () => {
  await addServer(first, 'slotted');
  await upsertProbeTarget(
    first.sql,
    'slotted',
    { url: door.url('/slotted'), intervalMs: 3_600_000, enabled: true, stepTimeoutMs: 5_000 },
    Date.now(),
  );
  const ran = await Promise.all([runDueProbes(first, 1), runDueProbes(second, 1)]);
  assert.deepEqual(
    ran.sort(),
    [0, 1],
    'exactly one scheduler runs the slot (before the claim, both ran it: lastRunAt moved only after a run)',
  );
  const [{ n }] = await testDb.query<{ n: number }>('SELECT COUNT(*) AS "n" FROM "ProbeRun" WHERE "server" = ?', ['slotted']);
  assert.equal(n, 1, 'one stored run');
  const oneRun = door.count('/slotted');
  assert.ok(oneRun > 0, 'the probe reached the server');
  // A third look finds the slot taken (not due for an hour): nothing runs, the server hears nothing more.
  assert.equal(await runDueProbes(second, 1), 0);
  assert.equal(door.count('/slotted'), oneRun);
  assert.notEqual((await readProbeTarget(first.sql, 'slotted'))?.lastRunAt, null);
});
