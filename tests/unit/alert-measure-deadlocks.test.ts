// The deadlocks_ongoing alert measure counts the deadlocks ongoing at the evaluation moment. It used
// to count only those that *started* inside the rule's window, so a client that had waited longer
// than the window dropped out and the default rule (15 min) resolved while the deadlock went on,
// and the doorwatch_deadlocks_ongoing gauge (no window) kept counting it.
// - a deadlock that began long before the window counts, in the server's scope and in all servers';
// - one that ended, or is still under the threshold, does not;
// - the measure agrees with the gauge's read at any moment.
// SQLite, or PostgreSQL with DOORWATCH_TEST_DATABASE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measure } from '@/lib/alerts/measures';
import { deadlockThresholdMs } from '@/lib/config/settings';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { addServer } from '@/lib/store/servers/server-registry';
import { readDomainSnapshot } from '@/lib/prometheus/domain-snapshot';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { naiveSession } from '../support/naive-session';

const database = migratedDatabaseForFile();
const T0 = Date.UTC(2026, 11, 6, 12, 0, 0);
const MIN = 60_000;
/** The default deadlock rule's window. */
const WINDOW = 15 * MIN;

const ongoing = (server: string | null, nowMs: number) =>
  measure(database().sql, 'deadlocks_ongoing', { server, fromMs: nowMs - WINDOW, toMs: nowMs });

test('a deadlock that began before the window still counts until it ends', async () => {
  await addServer(database(), 'dl-long');
  await addServer(database(), 'dl-other');
  await ingestEvents(database(), 'dl-long', naiveSession('waits', T0), { now: T0 + 1_000 });
  await ingestEvents(database(), 'dl-other', naiveSession('other', T0 + 5 * MIN), { now: T0 + 5 * MIN + 1_000 });

  // Twenty minutes in: the first client has waited longer than the window; it is still waiting.
  const at20 = T0 + 20 * MIN;
  assert.equal(await ongoing('dl-long', at20), 1, 'waiting 20 min with a 15 min window');
  assert.equal(await ongoing('dl-other', at20), 1);
  assert.equal(await ongoing(null, at20), 2, 'all servers');
  assert.equal(await ongoing('dl-none', at20), 0, 'a server with no sessions has none (not "no data")');

  // Just under the default DOORWATCH_DEADLOCK_MAX_MS (an hour), nothing changed: it still counts. A day
  // later its end is unreported (its server would have timed it out long before): no longer ongoing.
  assert.equal(await ongoing('dl-long', T0 + 60 * MIN - 1), 1);
  assert.equal(await ongoing('dl-long', T0 + 24 * 60 * MIN), 0, 'end unreported');

  // The client gives up: the deadlock ended, whatever its length.
  const end = [{ id: 'waits.5', token: 'waits', type: 'session.abandoned', at: new Date(T0 + 21 * MIN).toISOString(), data: {} }];
  await ingestEvents(database(), 'dl-long', end, { now: T0 + 21 * MIN + 1_000 });
  assert.equal(await ongoing('dl-long', T0 + 22 * MIN), 0);
  assert.equal(await ongoing(null, T0 + 22 * MIN), 1);
});

test('a client still under the threshold is not yet a deadlock; the gauge reads the same at every moment', async () => {
  const server = 'dl-young';
  await addServer(database(), server);
  const start = T0 + 60 * MIN;
  await ingestEvents(database(), server, naiveSession('young', start), { now: start + 1_000 });
  const waitingFrom = start + 250;
  const threshold = deadlockThresholdMs();
  assert.equal(await ongoing(server, waitingFrom + threshold - 1), 0, 'one ms short of the threshold');
  assert.equal(await ongoing(server, waitingFrom + threshold), 1, 'at the threshold');
  for (const nowMs of [waitingFrom + threshold - 1, waitingFrom + threshold, waitingFrom + 2 * WINDOW]) {
    const gauge = (await readDomainSnapshot(database().sql, nowMs, threshold, 0)).deadlocksOngoing.get(server) ?? 0;
    assert.equal(await ongoing(server, nowMs), gauge, `the gauge and the measure at +${nowMs - waitingFrom} ms`);
  }
});
