// "LatencyHistogramQuarter" (lib/store/rollups.ts): the per-quarter, all-server latency histogram.
// 1. Whatever order batches arrive in and however they are cut, the stored quarter cells are the
//    same, and they are the sums of the stored minute cells over servers and the quarter's minutes.
// 2. The overview's read (whole quarters from the quarter table, edge minutes from LatencyHistogram)
//    returns the same counts, hence the same percentiles, as summing the minute cells alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { histogramKey, summarizeHistogram, type LatencyMetric } from '@/lib/metrics/latency-histogram';
import { addContributions, pruneZeroCells, type RollupDelta } from '@/lib/metrics/rollup-contributions';
import {
  QUARTER_MS,
  applyRollupDelta,
  histogramQuarterRows,
  histogramSums,
  splitRollupDelta,
  type HistogramCells,
} from '@/lib/store/rollups';
import { TABLE_SQL } from '@/lib/store/tables';
import { migratedDatabaseForFile } from '../support/migrated-database';

const T0 = Date.UTC(2026, 0, 5, 0, 0, 0);
const SERVERS = ['alpha', 'beta', 'gamma'] as const;
const METRICS = ['refusal', 'renegotiation'] as const;

/** One histogram count change, as a batch's delta carries it (negative: a late event moved a session's latency). */
interface Op {
  server: string;
  minute: number;
  metric: LatencyMetric;
  bucket: number;
  sign: 1 | -1;
}

// Samples over 3 hours (12 quarters), a handful of buckets so cells collide and cancel.
const sample = fc.record({
  server: fc.constantFrom(...SERVERS),
  minute: fc.integer({ min: 0, max: 179 }).map((m) => T0 + m * 60_000),
  metric: fc.constantFrom(...METRICS),
  bucket: fc.integer({ min: -3, max: 8 }).map((b) => b * 20),
});

/** Sessions stored, some then revised (−old +new), as ops. */
const opsArb = fc.array(fc.tuple(sample, fc.option(sample, { nil: undefined })), { maxLength: 60 }).map((pairs) =>
  pairs.flatMap(([first, revised]): Op[] =>
    revised === undefined
      ? [{ ...first, sign: 1 }]
      : [
          { ...first, sign: 1 },
          { ...first, sign: -1 },
          { ...revised, server: first.server, sign: 1 },
        ],
  ),
);

function deltaOf(ops: readonly Op[]): RollupDelta {
  const delta: RollupDelta = new Map();
  for (const op of ops)
    addContributions(delta, op.server, [{ minute: op.minute, column: histogramKey(op.metric, op.bucket), value: 1 }], op.sign);
  pruneZeroCells(delta);
  return delta;
}

/** Cuts ops into batches at the given points and applies each batch's quarter rows to a store, as ingest does. */
function storeQuarters(ops: readonly Op[], cuts: readonly number[]): Map<string, number> {
  const points = [...new Set(cuts.map((c) => c % (ops.length + 1)))].sort((a, b) => a - b);
  const stored = new Map<string, number>();
  let from = 0;
  for (const to of [...points, ops.length]) {
    const { histogram } = splitRollupDelta(deltaOf(ops.slice(from, to)));
    for (const [quarter, metric, bucket, count] of histogramQuarterRows(histogram)) {
      const k = `${quarter}|${metric}|${bucket}`;
      stored.set(k, (stored.get(k) ?? 0) + count);
    }
    from = Math.max(from, to);
  }
  for (const [k, v] of stored) if (v === 0) stored.delete(k);
  return stored;
}

function shuffle<T>(items: readonly T[], perm: readonly number[]): T[] {
  const out = [...items];
  for (let i = 0; i < Math.min(perm.length, out.length); i++) {
    const j = perm[i] % out.length;
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('latency histogram quarter cells', () => {
  test('any delivery order and batching stores the same quarter cells: the sums of the minute cells over servers', () => {
    fc.assert(
      fc.property(
        opsArb,
        fc.array(fc.nat(), { maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (ops, perm, cutsA, cutsB) => {
          const inOrder = storeQuarters(ops, cutsA);
          const shuffled = storeQuarters(shuffle(ops, perm), cutsB);
          assert.deepEqual(shuffled, inOrder);
          // The minute cells of the whole delta, summed per quarter over servers.
          const expected = new Map<string, number>();
          for (const [minute, , metric, bucket, count] of splitRollupDelta(deltaOf(ops)).histogram) {
            const k = `${Math.floor(minute / QUARTER_MS) * QUARTER_MS}|${metric}|${bucket}`;
            expected.set(k, (expected.get(k) ?? 0) + count);
          }
          for (const [k, v] of expected) if (v === 0) expected.delete(k);
          assert.deepEqual(inOrder, expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('quarter rows come in key order (concurrent writers lock shared rows in the same order)', () => {
    fc.assert(
      fc.property(opsArb, (ops) => {
        const rows = histogramQuarterRows(splitRollupDelta(deltaOf(ops)).histogram);
        const keys = rows.map(([q, m, b]) => [q, m, b] as const);
        const sorted = [...keys].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]) || a[2] - b[2]);
        assert.deepEqual(keys, sorted);
        assert.ok(rows.every((r) => r[3] !== 0));
      }),
    );
  });
});

describe('the overview read: whole quarters + edge minutes = the minute cells alone', () => {
  const database = migratedDatabaseForFile();

  interface HistogramBucketRow {
    b: number;
    metric: LatencyMetric;
    bucket: number;
    count: number;
  }
  /** histogramSums' answer as (series bucket, metric, latency bucket, count) rows, to compare with the reference. */
  const rowsOf = (sums: Record<LatencyMetric, HistogramCells>): HistogramBucketRow[] =>
    METRICS.flatMap((metric) =>
      [...sums[metric]].flatMap(([b, counts]) => [...counts].map(([bucket, count]) => ({ b, metric, bucket, count }))),
    );

  /** The per-minute read, as the overview made it before the quarter table: the reference. */
  async function minuteOnly(q: { fromMs: number; toMs: number; bucketMs: number }): Promise<HistogramBucketRow[]> {
    const rows = await database().sql.query<{ b: unknown; metric: string; bucket: unknown; count: unknown }>(
      `SELECT CAST("minute" / CAST(? AS BIGINT) AS BIGINT) AS "b", "metric", "bucket", CAST(SUM("count") AS BIGINT) AS "count"
         FROM ${TABLE_SQL.latencyHistogram} WHERE "minute" >= ? AND "minute" < ? GROUP BY 1, 2, 3`,
      [q.bucketMs, q.fromMs, q.toMs],
    );
    return rows.map((r) => ({ b: Number(r.b), metric: r.metric as LatencyMetric, bucket: Number(r.bucket), count: Number(r.count) }));
  }
  const canonical = (rows: readonly HistogramBucketRow[]) =>
    rows
      .filter((r) => r.count !== 0)
      .map((r) => `${r.b}|${r.metric}|${r.bucket}|${r.count}`)
      .sort();
  const percentiles = (rows: readonly HistogramBucketRow[], metric: LatencyMetric) => {
    const per = new Map<number, { bucket: number; count: number }[]>();
    for (const r of rows.filter((x) => x.metric === metric)) per.set(r.b, [...(per.get(r.b) ?? []), r]);
    return {
      total: summarizeHistogram(rows.filter((x) => x.metric === metric)),
      byBucket: [...per].sort((a, b) => a[0] - b[0]).map(([b, counted]) => [b, summarizeHistogram(counted)]),
    };
  };

  test('for random cells and ranges, the same counts and the same percentiles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opsArb, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 180 }),
        fc.integer({ min: 0, max: 180 }),
        fc.constantFrom(QUARTER_MS, 2 * QUARTER_MS, 3_600_000, 5 * 60_000),
        async (batches, a, b, bucketMs) => {
          await database().sql.execute(`DELETE FROM ${TABLE_SQL.latencyHistogram}`);
          await database().sql.execute(`DELETE FROM ${TABLE_SQL.latencyHistogramQuarter}`);
          // Each batch in its own transaction, as ingest writes them.
          for (const ops of batches) await database().sql.transaction((tx) => applyRollupDelta(tx, deltaOf(ops)));
          const q = { fromMs: T0 + Math.min(a, b) * 60_000, toMs: T0 + Math.max(a, b) * 60_000, bucketMs };
          const viaQuarters = rowsOf(await histogramSums(database().sql, { ...q, server: null }, METRICS));
          const reference = await minuteOnly(q);
          assert.deepEqual(canonical(viaQuarters), canonical(reference));
          for (const metric of METRICS) assert.deepEqual(percentiles(viaQuarters, metric), percentiles(reference, metric));
        },
      ),
      { numRuns: 60 },
    );
  });

  test("a server filter reads only that server's minute cells", async () => {
    await database().sql.execute(`DELETE FROM ${TABLE_SQL.latencyHistogram}`);
    await database().sql.execute(`DELETE FROM ${TABLE_SQL.latencyHistogramQuarter}`);
    const ops: Op[] = [
      { server: 'alpha', minute: T0, metric: 'refusal', bucket: 100, sign: 1 },
      { server: 'beta', minute: T0 + 60_000, metric: 'refusal', bucket: 120, sign: 1 },
    ];
    await database().sql.transaction((tx) => applyRollupDelta(tx, deltaOf(ops)));
    const q = { fromMs: T0, toMs: T0 + 3_600_000, bucketMs: QUARTER_MS };
    assert.deepEqual(rowsOf(await histogramSums(database().sql, { ...q, server: 'alpha' }, ['refusal'])), [
      { b: T0 / QUARTER_MS, metric: 'refusal', bucket: 100, count: 1 },
    ]);
    assert.deepEqual(canonical(rowsOf(await histogramSums(database().sql, { ...q, server: null }, ['refusal']))), [
      `${T0 / QUARTER_MS}|refusal|100|1`,
      `${T0 / QUARTER_MS}|refusal|120|1`,
    ]);
  });
});
