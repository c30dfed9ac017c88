// A probe's token marks its session synthetic whoever reports it — also the probed server
// registered under another name (issue 23: such sessions counted as real traffic and fired a
// dual-negotiation alert). Before or after the probe stored its run; SQLite and PostgreSQL
// (DOORWATCH_TEST_DATABASE).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { storeBatch } from '@/lib/ingest/store-batch';
import { computeStats } from '@/lib/queries/stats';
import { parseStatsQuery } from '@/lib/queries/stats-query';
import { parseQuery } from '@/lib/http/parse-input';
import { ZStatsQuery } from '@/lib/contract/api/stats';
import { findSession } from '@/lib/store/sessions';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { addServer } from '@/lib/store/servers/server-registry';

const T0 = Date.parse('2026-12-03T10:00:00.000Z');
const NOW = T0 + 60_000;
const THRESHOLD = 10_000;

const database = migratedDatabaseForFile(async (db) => {
  for (const name of ['probed', 'alias']) await addServer(db, name);
});

/** A refused boundary resume: a session every fleet statistic counts. */
function refusedSession(prefix: string, token: string, offsetMs: number): DoorwatchEvent[] {
  const at = (ms: number) => new Date(T0 + offsetMs + ms).toISOString();
  return [
    { id: `${prefix}.0`, token, type: 'session.opened', at: at(0), data: {} },
    { id: `${prefix}.1`, token, type: 'upgrade.accepted', at: at(30), data: { eventId: 3 } },
    { id: `${prefix}.2`, token, type: 'stream.dropped', at: at(80), data: {} },
    { id: `${prefix}.3`, token, type: 'resume.requested', at: at(90), data: { lastEventId: 3 } },
    { id: `${prefix}.4`, token, type: 'resume.refused', at: at(97), data: { reason: 'session-superseded' } },
  ] as DoorwatchEvent[];
}

const probeRun = (runId: string, token: string) =>
  storeBatch(database().sql, 'probed', refusedSession(`probe.${runId}`, token, 0), {
    now: NOW,
    writtenAt: NOW,
    floorAtDatabaseClock: false,
    deadlockThresholdMs: THRESHOLD,
    synthetic: { runId, tokens: [token] },
  });

async function aliasStats() {
  const p = new URLSearchParams({ from: new Date(T0 - 60_000).toISOString(), to: new Date(NOW).toISOString(), server: 'alias' });
  const s = await computeStats(database(), { ...parseStatsQuery(parseQuery(ZStatsQuery, p), NOW), thresholdMs: THRESHOLD });
  return { sessions: s.sessions, boundary: s.boundary, refused: s.refused };
}

describe('synthetic marking follows the token, under any server name', () => {
  test('reported under another server after the probe: synthetic, not counted', async () => {
    await probeRun('run-a', 'tok-after');
    const r = await ingestEvents(database(), 'alias', refusedSession('alias.a', 'tok-after', 5), { now: NOW });
    assert.deepEqual(r.rejected, []);
    assert.equal(Number((await findSession(database().sql, 'alias', 'tok-after'))?.synthetic), 1);
    assert.deepEqual(await aliasStats(), { sessions: 0, boundary: 0, refused: 0 });
  });

  test('reported under another server before the probe: flipped, its counts taken back', async () => {
    await ingestEvents(database(), 'alias', refusedSession('alias.b', 'tok-before', 1_000), { now: NOW });
    assert.equal(Number((await findSession(database().sql, 'alias', 'tok-before'))?.synthetic), 0);
    assert.deepEqual(await aliasStats(), { sessions: 1, boundary: 1, refused: 1 }, 'real until the probe says otherwise');
    await probeRun('run-b', 'tok-before');
    assert.equal(Number((await findSession(database().sql, 'alias', 'tok-before'))?.synthetic), 1);
    assert.deepEqual(await aliasStats(), { sessions: 0, boundary: 0, refused: 0 });
  });

  test('a token no probe opened stays real on every server', async () => {
    await ingestEvents(database(), 'alias', refusedSession('alias.c', 'tok-real', 2_000), { now: NOW });
    assert.equal(Number((await findSession(database().sql, 'alias', 'tok-real'))?.synthetic), 0);
    assert.deepEqual(await aliasStats(), { sessions: 1, boundary: 1, refused: 1 });
  });
});
