// Migration 20261204090000_histogram_le_edges on the test database's provider (run it on both): a
// database at the previous migration, with counters written the old way ([lower, upper) buckets,
// "under" marks, histogram cells without min/max), is renamed and recounted to what fresh ingest
// writes now (the pure contributions of its Session rows: ≤ edges, exact min/max per cell).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { addContributions, sessionContributions, type RollupDelta, type SessionAnchors } from '@/lib/metrics/rollup-contributions';
import { REFUSAL_HISTOGRAM_COLUMNS } from '@/lib/metrics/refusal-histogram';
import { histogramQuarterRows, splitRollupDelta } from '@/lib/store/rollups';
import { createTestDatabase, testProvider, type TestDatabase } from '../support/test-database';

const MIGRATION = '20261204090000_histogram_le_edges';
const provider = testProvider();
let db: TestDatabase | null = null;
after(() => db?.drop());

interface S {
  server: string;
  token: string;
  synthetic?: 1;
  refusedAt?: number;
  latency?: number;
  successorOpenedAt?: number;
  reneg?: number;
}
// Refusals of exactly 50 and 200 ms (and 203 ms in 200 ms's log-scale cell), 404 ms, 5000 ms, 7 ms,
// a probe's 10 ms refusal (never counted), renegotiations of exactly 200 ms and 50 ms.
const SESSIONS: S[] = [
  { server: 'alpha', token: 's1', refusedAt: 60_100, latency: 50 },
  { server: 'alpha', token: 's2', refusedAt: 61_000, latency: 200 },
  { server: 'alpha', token: 's7', refusedAt: 62_000, latency: 203 },
  { server: 'alpha', token: 's3', refusedAt: 130_000, latency: 404 },
  { server: 'alpha', token: 's4', refusedAt: 60_500, latency: 10, synthetic: 1 },
  { server: 'alpha', token: 's5', successorOpenedAt: 61_500, reneg: 200 },
  { server: 'alpha', token: 's6', successorOpenedAt: 125_000, reneg: 50 },
  { server: 'beta', token: 'b1', refusedAt: 60_000, latency: 5000 },
  { server: 'beta', token: 'b2', refusedAt: 960_000, latency: 7 },
];
// What the old writer stored for them: [lower, upper) buckets and "under" marks.
const OLD_ROLLUPS: [server: string, minute: number, values: Record<string, number>][] = [
  ['alpha', 60_000, { refused: 3, refusedLt100ms: 1, refusedLt500ms: 2, renegotiations: 1 }],
  ['alpha', 120_000, { refused: 1, refusedLt500ms: 1, renegotiations: 1, renegUnder200ms: 1 }],
  ['beta', 60_000, { refused: 1, refusedGe5000ms: 1 }],
  ['beta', 960_000, { refused: 1, refusedLt10ms: 1 }],
];
const OLD_QUARTERS: [server: string, minute: number, values: Record<string, number>][] = [
  ['alpha', 0, { refused: 4, refusedLt100ms: 1, refusedLt500ms: 3, renegotiations: 2, renegUnder200ms: 1 }],
  ['beta', 0, { refused: 1, refusedGe5000ms: 1 }],
  ['beta', 900_000, { refused: 1, refusedLt10ms: 1 }],
];

const anchors = (s: S): SessionAnchors => ({
  firstEventAt: 0,
  boundaryAt: s.refusedAt ?? null,
  boundaryOutcome: s.refusedAt === undefined ? null : 'refused',
  answeredAt: s.refusedAt ?? null,
  refusedAt: s.refusedAt ?? null,
  refusalLatencyMs: s.latency ?? null,
  dualNegotiationAt: null,
  burnedTokenReuseAt: null,
  deadlockStartedAt: null,
  deadlockEndedAt: null,
  successorOpenedAt: s.successorOpenedAt ?? null,
  renegotiationLatencyMs: s.reneg ?? null,
});

const insert = (table: string, values: Record<string, unknown>) =>
  db!.query(
    `INSERT INTO "${table}" (${Object.keys(values)
      .map((k) => `"${k}"`)
      .join(',')}) VALUES (${Object.keys(values)
      .map(() => '?')
      .join(',')})`,
    Object.values(values),
  );

test(`${MIGRATION} renames and recounts the ≤ counters and backfills exact min/max (${provider})`, async () => {
  db = await createTestDatabase(provider);
  const root = mkdtempSync(join(tmpdir(), 'dw-mig-le-'));
  const dir = join(root, 'prisma', provider, 'migrations');
  mkdirSync(dir, { recursive: true });
  const real = join('prisma', provider, 'migrations');
  writeFileSync(join(dir, 'migration_lock.toml'), `provider = "${provider}"\n`);
  const names = readdirSync(real)
    .filter((n) => /^\d{14}_/.test(n))
    .sort();
  assert.ok(names.includes(MIGRATION));
  for (const n of names.filter((n) => n < MIGRATION)) cpSync(join(real, n), join(dir, n), { recursive: true });
  const config = readDatabaseConfig({ DATABASE_URL: db.url });
  await runMigrations(config, root);

  // The state the previous writer left: sessions, old-style counters, histogram cells without min/max.
  for (const s of SESSIONS)
    await insert('Session', {
      server: s.server,
      token: s.token,
      state: 'superseded',
      flags: '',
      firstEventAt: 0,
      lastEventAt: 0,
      eventCount: 1,
      updatedAt: 0,
      synthetic: s.synthetic ?? 0,
      boundaryAt: s.refusedAt ?? null,
      boundaryOutcome: s.refusedAt === undefined ? null : 'refused',
      answeredAt: s.refusedAt ?? null,
      refusedAt: s.refusedAt ?? null,
      refusalLatencyMs: s.latency ?? null,
      successorOpenedAt: s.successorOpenedAt ?? null,
      renegotiationLatencyMs: s.reneg ?? null,
    });
  for (const [server, minute, values] of OLD_ROLLUPS) await insert('Rollup', { server, minute, ...values });
  for (const [server, minute, values] of OLD_QUARTERS) await insert('RollupQuarter', { server, minute, ...values });
  const delta: RollupDelta = new Map();
  for (const s of SESSIONS) if (!s.synthetic) addContributions(delta, s.server, sessionContributions(anchors(s)), 1);
  const fresh = splitRollupDelta(delta);
  for (const [minute, server, metric, bucket, count] of fresh.histogram)
    await insert('LatencyHistogram', { minute, server, metric, bucket, count });
  const quarterRows = histogramQuarterRows(fresh.histogram);
  for (const [minute, metric, bucket, count] of quarterRows) await insert('LatencyHistogramQuarter', { minute, metric, bucket, count });

  mkdirSync(join(dir, MIGRATION));
  cpSync(join(real, MIGRATION), join(dir, MIGRATION), { recursive: true });
  assert.deepEqual((await runMigrations(config, root)).applied, [MIGRATION]);

  // The counters equal what ingest writes now for the same sessions.
  const columns = [...REFUSAL_HISTOGRAM_COLUMNS, 'renegLe50ms', 'renegLe200ms'] as const;
  const read = async (table: string) => {
    const out: Record<string, Record<string, number>> = {};
    for (const r of await db!.query<Record<string, unknown>>(`SELECT * FROM "${table}" ORDER BY "server", "minute"`)) {
      const values: Record<string, number> = {};
      for (const c of columns) if (Number(r[c]) !== 0) values[c] = Number(r[c]);
      if (Object.keys(values).length > 0) out[`${r.server}|${Number(r.minute)}`] = values;
    }
    return out;
  };
  const expected = (cells: typeof fresh.minutes) =>
    Object.fromEntries(
      cells
        .filter((c) => columns.some((k) => c.values[k]))
        .map((c) => [`${c.server}|${c.minute}`, Object.fromEntries(columns.filter((k) => c.values[k]).map((k) => [k, c.values[k]!]))]),
    );
  assert.deepEqual(await read('Rollup'), expected(fresh.minutes));
  assert.deepEqual(await read('RollupQuarter'), expected(fresh.quarters));
  // Spelled out at the design thresholds: exactly 50 ms and 200 ms are under their edges now.
  assert.deepEqual((await read('Rollup'))['alpha|60000'], { refusedLe50ms: 1, refusedLe200ms: 1, refusedLe500ms: 1, renegLe200ms: 1 });
  assert.deepEqual((await read('Rollup'))['alpha|120000'], { refusedLe500ms: 1, renegLe50ms: 1, renegLe200ms: 1 });
  assert.deepEqual((await read('Rollup'))['beta|60000'], { refusedLe5000ms: 1 });

  // Min/max per cell: those ingest writes (the added latencies of a fresh delta).
  const cells = await db.query<Record<string, unknown>>(
    'SELECT "minute", "server", "metric", "bucket", "count", "minMs", "maxMs" FROM "LatencyHistogram" ORDER BY "minute", "server", "metric", "bucket"',
  );
  assert.deepEqual(
    cells.map((r) => [Number(r.minute), r.server, r.metric, Number(r.bucket), Number(r.count), Number(r.minMs), Number(r.maxMs)]),
    fresh.histogram,
  );
  assert.ok(
    fresh.histogram.some((r) => r[4] === 2 && r[5] === 200 && r[6] === 203),
    'one cell holds two latencies with distinct min and max',
  );
  const quarters = await db.query<Record<string, unknown>>(
    'SELECT "minute", "metric", "bucket", "count", "minMs", "maxMs" FROM "LatencyHistogramQuarter" ORDER BY "minute", "metric", "bucket"',
  );
  assert.deepEqual(
    quarters.map((r) => [Number(r.minute), r.metric, Number(r.bucket), Number(r.count), Number(r.minMs), Number(r.maxMs)]),
    quarterRows,
  );
});
