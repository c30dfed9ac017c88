// A "Deadlocks on X" incident is opened by a deadlocks_ongoing rule firing, and it used to list no
// sessions: the sweep linked only naive resumes, dual negotiations and burned-token reuses. Now the
// deadlocked sessions join it:
// - an ongoing deadlock (unended, older than the threshold by the sweep's clock) joins on the first
//   pass that sees it so, although no write brings the session back into the cursor's read;
// - one still under the threshold does not, until a later pass's clock puts it past;
// - an ended deadlock joins when its ending is written;
// - deadlocks never open an incident, nor reopen a resolved one (the rule says what is an incident);
// - more ongoing deadlocks than a page: later pages and passes take the rest, none twice.
// SQLite, or PostgreSQL with DOORWATCH_TEST_DATABASE. One simulated clock (capAtDatabaseClock: false).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sweepIncidents } from '@/lib/incidents/sweep-incidents';
import { recordEvidence } from '@/lib/incidents/record-evidence';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { addServer } from '@/lib/store/servers/server-registry';
import { incidentSessionPage } from '@/lib/store/incident-sessions';
import { readIncidentOf, resolveIncident } from '@/lib/store/incidents';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { naiveSession } from '../support/naive-session';

const database = migratedDatabaseForFile();
const THRESHOLD = 300_000;
const T0 = Date.UTC(2026, 11, 6, 12, 0, 0);

const sweep = (nowMs: number, paging?: { page: number; maxPages: number }) =>
  sweepIncidents(database().sql, nowMs, { quietMs: 3_600_000, deadlockThresholdMs: THRESHOLD, capAtDatabaseClock: false, paging });

/** What a deadlocks_ongoing rule firing on `server` records (lib/alerts/incident-link.ts). */
const alertFires = (server: string, at: number) =>
  database().sql.transaction((tx) => recordEvidence(tx, [{ server, kind: 'deadlock', at, ref: `tr_${server}_${at}` }], 'alert', at));

async function linked(server: string): Promise<string[]> {
  const incident = await readIncidentOf(database().sql, server, 'deadlock');
  assert.ok(incident, `a deadlock incident on ${server}`);
  return (await incidentSessionPage(database().sql, incident.id, 1000, 0)).map((s) => s.token).sort();
}

test('an ongoing deadlock joins the incident its rule opened; one under the threshold joins once a pass finds it past', async () => {
  const server = 'dl-ongoing';
  await addServer(database(), server);
  await ingestEvents(database(), server, naiveSession('old', T0), { now: T0 + 1_000 });
  await ingestEvents(database(), server, naiveSession('young', T0 + 200_000), { now: T0 + 201_000 });
  const firedAt = T0 + 400_000;
  await alertFires(server, firedAt);
  await sweep(firedAt + 1_000);
  assert.deepEqual(await linked(server), ['old'], 'young has waited 200 s of 300');

  const before = (await readIncidentOf(database().sql, server, 'deadlock'))!;
  assert.equal(before.sessionCount, 1);
  assert.equal(before.firstSeenAt, T0 + 250, 'the incident began when the client began to wait, before the rule fired');
  // No write in between: the session is found by the clock alone.
  await sweep(T0 + 200_250 + THRESHOLD);
  assert.deepEqual(await linked(server), ['old', 'young']);
  await sweep(T0 + 200_250 + THRESHOLD + 60_000);
  assert.equal((await readIncidentOf(database().sql, server, 'deadlock'))!.sessionCount, 2, 'linked once each');
});

test('an ended deadlock joins when its ending is written', async () => {
  const server = 'dl-ended';
  await addServer(database(), server);
  await alertFires(server, T0);
  await ingestEvents(database(), server, naiveSession('ends', T0), { now: T0 + 1_000 });
  await sweep(T0 + 2_000);
  const incident = (await readIncidentOf(database().sql, server, 'deadlock'))!;
  assert.equal(incident.sessionCount, 0, 'waiting 1.75 s: not yet a deadlock');
  // The client gives up after 20 s: a deadlock that ended, whatever its length.
  const end = [{ id: 'ends.5', token: 'ends', type: 'session.abandoned', at: new Date(T0 + 20_250).toISOString(), data: {} }];
  await ingestEvents(database(), server, end, { now: T0 + 21_000 });
  await sweep(T0 + 22_000);
  assert.deepEqual(await linked(server), ['ends']);
});

test('deadlocks open no incident and reopen no resolved one; the naive resume still opens its own', async () => {
  const server = 'dl-none';
  await addServer(database(), server);
  await ingestEvents(database(), server, naiveSession('alone', T0), { now: T0 + 1_000 });
  await sweep(T0 + 2 * THRESHOLD);
  assert.equal(await readIncidentOf(database().sql, server, 'deadlock'), null);
  assert.ok(await readIncidentOf(database().sql, server, 'naive_resume'));

  const resolvedServer = 'dl-resolved';
  await addServer(database(), resolvedServer);
  const opened = await alertFires(resolvedServer, T0);
  assert.ok(await database().sql.transaction((tx) => resolveIncident(tx, opened.id, 'someone', T0 + 1_000)));
  await ingestEvents(database(), resolvedServer, naiveSession('later', T0 + 2_000), { now: T0 + 3_000 });
  await sweep(T0 + 2 * THRESHOLD);
  const after = (await readIncidentOf(database().sql, resolvedServer, 'deadlock'))!;
  assert.equal(after.status, 'resolved', 'its rule firing again reopens it, not the sweep');
  assert.equal(after.sessionCount, 0);
});

test('more ongoing deadlocks than a page: the next pages and passes take the rest, each once', async () => {
  const server = 'dl-storm';
  await addServer(database(), server);
  const tokens = Array.from({ length: 7 }, (_, i) => `storm-${i}`);
  await ingestEvents(
    database(),
    server,
    tokens.flatMap((token, i) => naiveSession(token, T0 + i)),
    { now: T0 + 1_000 },
  );
  await alertFires(server, T0 + THRESHOLD + 1_000);
  // Pages of two, two pages a pass: four, then the other three.
  const first = await sweep(T0 + THRESHOLD + 2_000, { page: 2, maxPages: 2 });
  assert.equal((await linked(server)).length, 4);
  assert.ok(first.sessions >= 4);
  await sweep(T0 + THRESHOLD + 3_000, { page: 2, maxPages: 2 });
  assert.deepEqual(await linked(server), tokens);
  assert.equal((await readIncidentOf(database().sql, server, 'deadlock'))!.sessionCount, 7);
});
