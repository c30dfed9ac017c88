// Retention on a real (temporary, migrated) database: old raw events go in bounded batches,
// recent ones stay, summaries and rollups are untouched; a pruned session's stored fold is carried
// on by a later event, and a late event (or a row without a fold) does not rewrite its summary.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { readSettings } from '@/lib/config/settings';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { pruneDeadLetters, pruneEvents, readRetentionConfig } from '@/lib/retention/prune-events';
import { addServer } from '@/lib/store/servers/server-registry';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-29T12:00:00.000Z');
let db: Db;
let dir: string;

function session(token: string, startMs: number, extra = 0): any[] {
  const at = (ms: number) => new Date(startMs + ms).toISOString();
  const out: any[] = [
    { id: `${token}-o`, token, type: 'session.opened', at: at(0), data: {} },
    { id: `${token}-u`, token, type: 'upgrade.accepted', at: at(100), data: { eventId: 7 } },
    { id: `${token}-d`, token, type: 'stream.dropped', at: at(150), data: {} },
    { id: `${token}-r`, token, type: 'resume.requested', at: at(200), data: { lastEventId: 7 } },
    { id: `${token}-x`, token, type: 'resume.refused', at: at(260), data: {} },
  ];
  for (let i = 0; i < extra; i++) out.push({ id: `${token}-k${i}`, token, type: 'stream.dropped', at: at(300 + i), data: {} });
  return out;
}

const count = async (where = '') => Number((await db.sql.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event" ${where}`))[0].n);
const snapshot = async () => ({
  sessions: await db.sql.query('SELECT * FROM "Session" ORDER BY "server", "token"'),
  rollups: await db.sql.query('SELECT * FROM "Rollup" ORDER BY "server", "minute"'),
  rollupQuarters: await db.sql.query('SELECT * FROM "RollupQuarter" ORDER BY "server", "minute"'),
  histograms: await db.sql.query('SELECT * FROM "LatencyHistogram" ORDER BY "minute", "server", "metric", "bucket"'),
  histogramQuarters: await db.sql.query('SELECT * FROM "LatencyHistogramQuarter" ORDER BY "minute", "metric", "bucket"'),
});

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doorwatch-retention-'));
  const config = readDatabaseConfig({ DATABASE_URL: `file:${join(dir, 'r.db')}` });
  await runMigrations(config);
  db = openDb(config);
  await addServer(db, 'alpha');
  const events = [
    ...Array.from({ length: 6 }, (_, i) => session(`old-${i}`, NOW - 40 * DAY + i * 60_000, 2)).flat(), // 6 × 7 = 42 old events
    ...session('recent', NOW - 2 * DAY),
    // Began before the cutoff but still active: its whole timeline is kept.
    ...session('spanning', NOW - 35 * DAY).slice(0, 4),
    { id: 'spanning-late', token: 'spanning', type: 'resume.refused', at: new Date(NOW - DAY).toISOString(), data: {} },
  ];
  const r = await ingestEvents(db, 'alpha', events, { now: NOW });
  assert.deepEqual(r.rejected, []);
});
after(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('retention settings: 30 days and 5,000-row batches by default, the audit log a year; 0 turns pruning off; nonsense is refused', () => {
  assert.deepEqual(readRetentionConfig(readSettings({})), {
    days: 30,
    batchSize: 5000,
    pauseMs: 250,
    intervalMs: 3_600_000,
    partitionDaysAhead: 7,
    auditDays: 365,
  });
  assert.equal(readRetentionConfig(readSettings({ DOORWATCH_RETENTION_DAYS: '0' })).days, 0);
  assert.throws(
    () => readSettings({ DOORWATCH_RETENTION_DAYS: '-1' }),
    /DOORWATCH_RETENTION_DAYS: must be a whole number >= 0 \(got "-1"\)/,
  );
  assert.throws(
    () => readSettings({ DOORWATCH_RETENTION_BATCH: '0' }),
    /DOORWATCH_RETENTION_BATCH: must be a whole number >= 1 \(got "0"\)/,
  );
});

test('old events go in bounded batches; recent and still-active timelines, summaries and rollups stay', async () => {
  const before = await snapshot();
  assert.equal(await count(), 42 + 5 + 5);
  assert.deepEqual(
    await pruneEvents(db.sql, { days: 0, now: NOW }),
    { cutoff: NOW, deleted: 0, batches: 0, partitionsDropped: 0 },
    'days=0 deletes nothing',
  );

  const perBatch: number[] = [];
  const r = await pruneEvents(db.sql, { days: 30, now: NOW, batchSize: 10, pauseMs: 1, onBatch: (n) => perBatch.push(n) });
  assert.deepEqual(perBatch, [10, 10, 10, 10, 2], 'every statement deletes at most batchSize rows');
  assert.deepEqual([r.deleted, r.batches, r.cutoff], [42, 5, NOW - 30 * DAY]);
  assert.equal(await count(`WHERE "token" LIKE 'old-%'`), 0);
  assert.equal(await count(`WHERE "token" = 'recent'`), 5);
  assert.equal(await count(`WHERE "token" = 'spanning'`), 5, 'a session still receiving events keeps its whole timeline');
  assert.deepEqual(await snapshot(), before, 'summaries and rollups are kept');
  assert.equal((await pruneEvents(db.sql, { days: 30, now: NOW, batchSize: 10 })).deleted, 0, 'a second run finds nothing');
});

test('maxBatches stops a run early; the next run continues', async () => {
  await ingestEvents(db, 'alpha', Array.from({ length: 3 }, (_, i) => session(`old2-${i}`, NOW - 50 * DAY + i * 1000)).flat(), {
    now: NOW,
  });
  const first = await pruneEvents(db.sql, { days: 30, now: NOW, batchSize: 4, pauseMs: 0, maxBatches: 2 });
  assert.deepEqual([first.deleted, first.batches], [8, 2]);
  const rest = await pruneEvents(db.sql, { days: 30, now: NOW, batchSize: 4, pauseMs: 0 });
  assert.deepEqual([rest.deleted, rest.batches], [7, 2]);
});

test('a pruned session carries its stored fold on: a later event is summarised with everything before it', async () => {
  const [before] = await db.sql.query<any>(`SELECT * FROM "Session" WHERE "token" = 'old-0'`);
  assert.notEqual(before.foldState, null);
  const next = { id: 'old-0-next', token: 'old-0', type: 'stream.dropped', at: new Date(NOW - 39 * DAY).toISOString(), data: {} };
  const r = await ingestEvents(db, 'alpha', [next], { now: NOW });
  assert.equal(r.accepted, 1);
  const [after] = await db.sql.query<any>(`SELECT * FROM "Session" WHERE "token" = 'old-0'`);
  // Its 7 pruned events still count: the fold holds them, not the Event table.
  assert.deepEqual(
    [after.eventCount, after.dropCount, Number(after.lastEventAt), Number(after.firstEventAt), after.state],
    [8, 4, Date.parse(next.at), Number(before.firstEventAt), before.state],
  );
});

test('a late event for a pruned session counts as an event but does not rewrite its summary', async () => {
  // Before its last event: the fold cannot be carried on, and what is left of the timeline is not the session.
  const [before] = await db.sql.query<any>(`SELECT * FROM "Session" WHERE "token" = 'old-1'`);
  const late = {
    id: 'old-1-late',
    token: 'old-1',
    type: 'stream.dropped',
    at: new Date(Number(before.firstEventAt) + 120).toISOString(),
    data: {},
  };
  const r = await ingestEvents(db, 'alpha', [late], { now: NOW });
  assert.equal(r.accepted, 1);
  const [after] = await db.sql.query<any>(`SELECT * FROM "Session" WHERE "token" = 'old-1'`);
  assert.deepEqual(after, before);
});

test('a row written before folds were kept: a later event for its pruned session does not rewrite its summary', async () => {
  await db.sql.execute(`UPDATE "Session" SET "foldState" = NULL WHERE "token" = 'old-2'`);
  const [before] = await db.sql.query<any>(`SELECT * FROM "Session" WHERE "token" = 'old-2'`);
  const next = { id: 'old-2-next', token: 'old-2', type: 'stream.dropped', at: new Date(NOW - 39 * DAY).toISOString(), data: {} };
  assert.equal((await ingestEvents(db, 'alpha', [next], { now: NOW })).accepted, 1);
  const [after] = await db.sql.query<any>(`SELECT * FROM "Session" WHERE "token" = 'old-2'`);
  assert.deepEqual(after, before);
});

test('dead letters past the cutoff go in bounded batches; recent ones stay', async () => {
  const bad = (id: string) => ({ id, token: 't', type: 'no.such.type', at: new Date(NOW).toISOString(), data: {} });
  await ingestEvents(db, 'alpha', [bad('dl-old-1'), bad('dl-old-2'), bad('dl-old-3')], { now: NOW - 31 * DAY });
  await ingestEvents(db, 'alpha', [bad('dl-new-1')], { now: NOW - DAY });
  const letters = async () =>
    (await db.sql.query<{ eventId: string }>('SELECT "eventId" FROM "DeadLetter" ORDER BY "eventId"')).map((r) => r.eventId);
  assert.deepEqual(await letters(), ['dl-new-1', 'dl-old-1', 'dl-old-2', 'dl-old-3']);
  const perBatch: number[] = [];
  const r = await pruneDeadLetters(db.sql, { days: 30, now: NOW, batchSize: 2, pauseMs: 0, onBatch: (n) => perBatch.push(n) });
  assert.deepEqual(perBatch, [2, 1]);
  assert.equal(r.deleted, 3);
  assert.deepEqual(await letters(), ['dl-new-1']);
});
