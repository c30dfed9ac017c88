// DOORWATCH_DEADLOCK_MAX_MS: a client's wait cannot outlast its server's idle timeout, but its end
// arrives only if the server reports it, and a server that crashed or restarted mid-deadlock never
// does. Without a maximum such a deadlock is "stuck now" forever: the gauge, the deadlocks_ongoing
// alert, the overview's stuck-now and the MCP tool never let it go. With one, an unended deadlock
// older than it is "end unreported": still a deadlock (in totals, in the flag filter), no longer
// ongoing, and every reader says so the same way. SQLite, or PostgreSQL with DOORWATCH_TEST_DATABASE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measure } from '@/lib/alerts/measures';
import { DEFAULT_DEADLOCK_MAX_MS } from '@/lib/boundary/deadlock-as-of';
import { deadlockThresholdMs, readSettings, reloadSettings, SettingsError } from '@/lib/config/settings';
import { ZStuckSessionsInput, ZStuckSessionsOutput } from '@/lib/contract/mcp-tools';
import { ZStatsResponse } from '@/lib/contract/api/stats';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { stuckSessions } from '@/lib/mcp/fleet-tools';
import { readDomainSnapshot } from '@/lib/prometheus/domain-snapshot';
import { getSessionDetail } from '@/lib/queries/session-detail';
import { computeStats } from '@/lib/queries/stats';
import { addServer } from '@/lib/store/servers/server-registry';
import { recordEvidence } from '@/lib/incidents/record-evidence';
import { sweepIncidents } from '@/lib/incidents/sweep-incidents';
import { incidentSessionPage } from '@/lib/store/incident-sessions';
import { readIncidentOf } from '@/lib/store/incidents';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { naiveSession } from '../support/naive-session';

const database = migratedDatabaseForFile();
const MIN = 60_000;
const MAX = 30 * MIN;
/** naiveSession leaves the client waiting from its start + 250 ms. */
const WAIT = 250;

function withMaximum(t: { after: (fn: () => void) => void }, maxMs: number) {
  const before = process.env.DOORWATCH_DEADLOCK_MAX_MS;
  process.env.DOORWATCH_DEADLOCK_MAX_MS = String(maxMs);
  reloadSettings();
  t.after(() => {
    if (before === undefined) delete process.env.DOORWATCH_DEADLOCK_MAX_MS;
    else process.env.DOORWATCH_DEADLOCK_MAX_MS = before;
    reloadSettings();
  });
}

const stats = async (server: string, nowMs: number, maxMs: number) =>
  ZStatsResponse.parse(
    await computeStats(database(), {
      range: { fromMs: nowMs - 120 * MIN, toMs: nowMs, fromInput: 'now-2h', toInput: 'now' },
      bucketMs: 120 * MIN,
      server,
      splitByServer: true,
      splitByVersion: { versions: [] },
      nowMs,
      thresholdMs: deadlockThresholdMs(),
      maxMs,
    }),
  );

/** On `server`: a client whose server died mid-deadlock at T0, and one waiting since T0 + 50 min (read at T0 + 60 min). */
async function orphanAndWaiting(server: string, T0: number, orphan: string, waiting: string) {
  await addServer(database(), server);
  await ingestEvents(database(), server, naiveSession(orphan, T0), { now: T0 + 1_000 });
  await ingestEvents(database(), server, naiveSession(waiting, T0 + 50 * MIN), { now: T0 + 50 * MIN + 1_000 });
}

test('an unended deadlock older than the maximum leaves stuck-now, the gauge and the alert, and stays a deadlock', async (t) => {
  withMaximum(t, MAX);
  const server = 'max-age';
  const T0 = Date.UTC(2026, 11, 6, 12, 0, 0);
  // Its server died 60 minutes ago mid-deadlock; another client has waited 10 minutes.
  await orphanAndWaiting(server, T0, 'orphan', 'waiting');
  const now = T0 + 60 * MIN;
  const threshold = deadlockThresholdMs();

  // Without a maximum (today's default) both are stuck now: the reads this test holds the maximum to.
  const unbounded = await stats(server, now, 0);
  assert.deepEqual([unbounded.deadlocks.ongoing, unbounded.deadlocks.stuckNow, unbounded.deadlocks.unreported], [2, 2, 0]);
  assert.equal((await readDomainSnapshot(database().sql, now, threshold, 0)).deadlocksOngoing.get(server), 2);

  const s = await stats(server, now, MAX);
  assert.equal(s.deadlocks.total, 2, 'both were deadlocks');
  assert.equal(s.deadlocks.ongoing, 1);
  assert.equal(s.deadlocks.unreported, 1);
  assert.equal(s.deadlocks.stuckNow, 1);
  assert.equal(s.deadlocks.stuckSince, new Date(T0 + 50 * MIN + WAIT).toISOString(), 'the one still waiting');
  assert.equal(s.deadlocks.idleMs, now - (T0 + 50 * MIN + WAIT) + MAX, 'the orphan counts the maximum, its known length');
  assert.equal(s.deadlocks.nextOngoingAt, new Date(T0 + 50 * MIN + WAIT + MAX).toISOString(), 'when the waiting one passes it');
  const [byServer] = s.byServer!;
  assert.deepEqual([byServer.deadlocks, byServer.ongoingDeadlocks, byServer.stuckNow], [2, 1, 1]);
  const [byVersion] = s.byVersion!;
  assert.deepEqual([byVersion.deadlocks, byVersion.ongoingDeadlocks], [2, 1], 'the version split agrees with the totals');

  // The gauges and the alert measure read the same (the measure reads the setting). The orphan's
  // upgrade is no longer pending either: no server keeps a session that long without a word.
  const gauges = await readDomainSnapshot(database().sql, now, threshold, MAX);
  assert.equal(gauges.deadlocksOngoing.get(server), 1);
  assert.equal(gauges.upgradesPending.get(server), 1);
  assert.equal((await readDomainSnapshot(database().sql, now, threshold, 0)).upgradesPending.get(server), 2);
  const alert = (nowMs: number) => measure(database().sql, 'deadlocks_ongoing', { server, fromMs: nowMs - 15 * MIN, toMs: nowMs });
  assert.equal(await alert(now), 1);
  // Once the second one passes the maximum too, nothing is stuck and the alert can resolve.
  const later = T0 + 50 * MIN + WAIT + MAX;
  assert.equal(await alert(later - 1), 1);
  assert.equal(await alert(later), 0);
  assert.equal((await stats(server, later, MAX)).deadlocks.nextOngoingAt, null);

  // The session view: a deadlock whose end went unreported, of the maximum's length.
  const orphan = await getSessionDetail(database(), server, 'orphan', now, threshold, MAX);
  assert.deepEqual(orphan.session.deadlock, {
    startedAt: new Date(T0 + WAIT).toISOString(),
    endedAt: null,
    durationMs: MAX,
    ongoing: false,
    endUnreported: true,
  });
  assert.ok(orphan.session.flags.includes('deadlock'));
  const waiting = await getSessionDetail(database(), server, 'waiting', now, threshold, MAX);
  assert.equal(waiting.session.deadlock?.ongoing, true);
  assert.equal(waiting.session.deadlock?.endUnreported, undefined, 'present only when true');
});

test('MCP stuck_sessions lists an end-unreported deadlock with the rest, not among those stuck now', async (t) => {
  withMaximum(t, MAX);
  // The tool reads Doorwatch's clock: the sessions are placed relative to it.
  const now = Date.now();
  const server = 'max-age-mcp';
  await addServer(database(), server);
  await ingestEvents(database(), server, naiveSession('orphan-mcp', now - 120 * MIN), { now: now - 120 * MIN + 1_000 });
  await ingestEvents(database(), server, naiveSession('waiting-mcp', now - 10 * MIN), { now: now - 10 * MIN + 1_000 });
  const out = ZStuckSessionsOutput.parse(await stuckSessions(database(), ZStuckSessionsInput.parse({ server: [server], from: 'now-3h' })));
  assert.deepEqual(
    out.sessions.map((s) => [s.token, s.deadlock?.ongoing, s.deadlock?.endUnreported ?? false]),
    [
      ['waiting-mcp', true, false],
      ['orphan-mcp', false, true],
    ],
  );
  assert.equal(out.ongoing, 1);
  // A from after the orphan's start is not widened to it: it is not stuck now.
  const later = ZStuckSessionsOutput.parse(
    await stuckSessions(database(), ZStuckSessionsInput.parse({ server: [server], from: 'now-15m' })),
  );
  assert.deepEqual(
    later.sessions.map((s) => s.token),
    ['waiting-mcp'],
  );
});

test("the incident sweep links the deadlocks ongoing to their server's deadlock incident, not one whose end went unreported", async () => {
  const server = 'max-age-incident';
  const T0 = Date.UTC(2026, 11, 6, 14, 0, 0);
  await orphanAndWaiting(server, T0, 'orphan-i', 'waiting-i');
  const now = T0 + 60 * MIN;
  // What a deadlocks_ongoing rule firing on the server records (lib/alerts/incident-link.ts).
  await database().sql.transaction((tx) => recordEvidence(tx, [{ server, kind: 'deadlock', at: now, ref: `tr_${server}` }], 'alert', now));
  const options = { quietMs: 3_600_000, deadlockThresholdMs: deadlockThresholdMs(), capAtDatabaseClock: false };
  await sweepIncidents(database().sql, now, { ...options, deadlockMaxMs: MAX });
  const incident = await readIncidentOf(database().sql, server, 'deadlock');
  assert.ok(incident);
  const linked = async () => (await incidentSessionPage(database().sql, incident.id, 1000, 0)).map((r) => r.token).sort();
  assert.deepEqual(await linked(), ['waiting-i']);
  // Without a maximum the orphan is ongoing too, and joins.
  await sweepIncidents(database().sql, now, options);
  assert.deepEqual(await linked(), ['orphan-i', 'waiting-i']);
});

test('a maximum at or under the deadlock threshold is refused at start, with the reason', () => {
  assert.throws(
    () => readSettings({ ...process.env, DOORWATCH_DEADLOCK_THRESHOLD_MS: '10000', DOORWATCH_DEADLOCK_MAX_MS: '10000' }),
    (e: unknown) =>
      e instanceof SettingsError && /DOORWATCH_DEADLOCK_MAX_MS: must be 0 or more than DOORWATCH_DEADLOCK_THRESHOLD_MS/.test(e.message),
  );
  assert.equal(readSettings({ ...process.env, DOORWATCH_DEADLOCK_MAX_MS: '0' }).DOORWATCH_DEADLOCK_MAX_MS, 0);
  assert.equal(readSettings({ ...process.env, DOORWATCH_DEADLOCK_MAX_MS: '3600000' }).DOORWATCH_DEADLOCK_MAX_MS, 3_600_000);
});

test('the default maximum is an hour; a threshold raised past it with no maximum set names the default', () => {
  const env: Record<string, string | undefined> = { ...process.env, DOORWATCH_DEADLOCK_THRESHOLD_MS: '10000' };
  delete env.DOORWATCH_DEADLOCK_MAX_MS;
  assert.equal(readSettings(env).DOORWATCH_DEADLOCK_MAX_MS, DEFAULT_DEADLOCK_MAX_MS);
  assert.equal(DEFAULT_DEADLOCK_MAX_MS, 3_600_000);
  assert.equal(
    readSettings({ ...env, DOORWATCH_DEADLOCK_MAX_MS: ' ' }).DOORWATCH_DEADLOCK_MAX_MS,
    DEFAULT_DEADLOCK_MAX_MS,
    'blank is unset',
  );
  assert.throws(
    () => readSettings({ ...env, DOORWATCH_DEADLOCK_THRESHOLD_MS: '3600000' }),
    (e: unknown) =>
      e instanceof SettingsError &&
      e.message.includes(
        'DOORWATCH_DEADLOCK_MAX_MS: must be 0 or more than DOORWATCH_DEADLOCK_THRESHOLD_MS (3600000) (unset: its default is 3600000; set it above the threshold, or 0)',
      ),
  );
});
