// "Stuck now" is every session deadlocked at the reader's clock, however long before the range it
// began to wait. The overview's alarm, the server strip, `doorwatch status` and the MCP fleet_status
// used to read it from `ongoingDeadlocks`, which counts only the deadlocks that began in range: a
// client stuck for 20 minutes was not stuck in a live 15-minute view, and the banner turned green
// ("No session stuck at the upgrade boundary") while it waited.
// SQLite, or PostgreSQL with DOORWATCH_TEST_DATABASE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ZStatsQuery, ZStatsResponse } from '@/lib/contract/api/stats';
import { parseQuery } from '@/lib/http/parse-input';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { computeStats } from '@/lib/queries/stats';
import { parseStatsQuery } from '@/lib/queries/stats-query';
import { addServer } from '@/lib/store/servers/server-registry';
import { alarmSample, alarmText, rawLevel } from '@/lib/ui/alarm';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { naiveSession } from '../support/naive-session';

const database = migratedDatabaseForFile();
const T0 = Date.UTC(2026, 11, 6, 12, 0, 0);
const MIN = 60_000;
const NOW = T0 + 30 * MIN;
const THRESHOLD = 10_000;

async function stats(query: Record<string, string>) {
  const parsed = parseQuery(ZStatsQuery, new URLSearchParams(query));
  return ZStatsResponse.parse(await computeStats(database(), { ...parseStatsQuery(parsed, NOW), thresholdMs: THRESHOLD }));
}

test('a client stuck since before the range is stuck now: in the totals, its server split and the alarm', async () => {
  for (const s of ['stuck-long', 'stuck-fresh', 'stuck-ended']) await addServer(database(), s);
  // Waiting since T0 (30 min before NOW, 15 min before a live 15-minute range begins).
  await ingestEvents(database(), 'stuck-long', naiveSession('long', T0), { now: T0 + 1_000 });
  // Waiting since 5 min before NOW: inside the range.
  await ingestEvents(database(), 'stuck-fresh', naiveSession('fresh', NOW - 5 * MIN), { now: NOW - 5 * MIN + 1_000 });
  // Waited from T0 and gave up at T0 + 5 min: not stuck.
  await ingestEvents(database(), 'stuck-ended', naiveSession('ended', T0), { now: T0 + 1_000 });
  const end = [{ id: 'ended.5', token: 'ended', type: 'session.abandoned', at: new Date(T0 + 5 * MIN).toISOString(), data: {} }];
  await ingestEvents(database(), 'stuck-ended', end, { now: T0 + 5 * MIN });

  const live = await stats({ from: 'now-15m', split: 'server' });
  assert.equal(live.deadlocks.ongoing, 1, 'ongoing counts those that began in range: the fresh one');
  assert.equal(live.deadlocks.stuckNow, 2, 'stuck now: the fresh one and the one waiting for 30 min');
  assert.equal(live.deadlocks.stuckSince, new Date(T0 + 250).toISOString(), 'the longest wait began at the naive answer');
  const split = new Map((live.byServer ?? []).map((b) => [b.server, b]));
  assert.deepEqual(
    [split.get('stuck-long')?.stuckNow, split.get('stuck-long')?.ongoingDeadlocks, split.get('stuck-long')?.boundary],
    [1, 0, 0],
    'a server with nothing in range but a stuck session has its entry',
  );
  assert.equal(split.get('stuck-fresh')?.stuckNow, 1);
  assert.equal(split.get('stuck-ended')?.stuckNow ?? 0, 0);

  const sample = alarmSample(live);
  assert.equal(rawLevel(sample), 'stuck');
  assert.match(alarmText(sample, NOW).headline, /2 sessions stuck: 1 on stuck-(long|fresh), 1 on stuck-(long|fresh)/);

  // One server: the long wait alone.
  const long = await stats({ from: 'now-15m', server: 'stuck-long', split: 'server' });
  assert.deepEqual([long.deadlocks.stuckNow, long.deadlocks.ongoing], [1, 0]);
  assert.equal(rawLevel(alarmSample(long)), 'stuck', 'the alarm for that server alone is red, not green');

  // A range that ended before the long wait began sees no one stuck; one that ended after it does.
  const before = await stats({ from: new Date(T0 - 30 * MIN).toISOString(), to: new Date(T0).toISOString() });
  assert.deepEqual([before.deadlocks.stuckNow, before.deadlocks.stuckSince], [0, null]);
  const after = await stats({ from: new Date(T0 + 10 * MIN).toISOString(), to: new Date(T0 + 20 * MIN).toISOString() });
  assert.equal(after.deadlocks.stuckNow, 1, 'stuck through that range and still now');
});

test('a naive answer before the range begins: nextOngoingAt says when it turns into a client stuck now', async () => {
  await addServer(database(), 'stuck-turning');
  // A threshold longer than the range (ranges start on a whole minute, so with the usual 10 s one a wait
  // younger than the threshold has begun in range): answered naively 3 min before NOW, a deadlock at NOW + 2 min.
  const threshold = 5 * MIN;
  const answered = NOW - 3 * MIN;
  await ingestEvents(database(), 'stuck-turning', naiveSession('turning', answered - 250), { now: NOW });
  const at = async (nowMs: number) => {
    const query = { from: new Date(NOW - MIN).toISOString(), to: new Date(NOW + 10 * MIN).toISOString(), server: 'stuck-turning' };
    const parsed = parseQuery(ZStatsQuery, new URLSearchParams(query));
    return ZStatsResponse.parse(await computeStats(database(), { ...parseStatsQuery(parsed, nowMs), thresholdMs: threshold }));
  };
  const now = await at(NOW);
  assert.deepEqual([now.deadlocks.stuckNow, now.deadlocks.ongoing], [0, 0]);
  assert.equal(now.deadlocks.nextOngoingAt, new Date(answered + threshold).toISOString(), 'the dashboard asks again then');
  const then = await at(answered + threshold);
  assert.deepEqual([then.deadlocks.stuckNow, then.deadlocks.ongoing], [1, 0], 'stuck now, though it began before the range');
});
