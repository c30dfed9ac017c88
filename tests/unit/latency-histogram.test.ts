// The log-scale latency histograms behind the overview's approximate percentiles
// (lib/metrics/latency-histogram.ts): the error bound against exact nearest-rank percentiles,
// order-independent merging, and the bucket table the backfill migration carries.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  HISTOGRAM_RELATIVE_ERROR,
  HISTOGRAM_UPPER_BOUNDS,
  histogramBucket,
  histogramKey,
  histogramValue,
  parseHistogramKey,
  summarizeBucketCounts,
  summarizeHistogram,
  type CountedBucket,
} from '@/lib/metrics/latency-histogram';
import { summarizeCountedLatencies, summarizeLatencies } from '@/lib/metrics/percentiles';
import {
  addContributions,
  pruneZeroCells,
  sessionContributions,
  type RollupDelta,
  type SessionAnchors,
} from '@/lib/metrics/rollup-contributions';
import { splitRollupDelta } from '@/lib/store/rollups';

const EPS = 1e-9;
const within = (estimate: number | null, exact: number | null) => {
  if (exact === null) return estimate === null;
  if (estimate === null) return false;
  return Math.abs(estimate - exact) <= HISTOGRAM_RELATIVE_ERROR * Math.abs(exact) + EPS;
};

function histogramOf(values: readonly number[]): CountedBucket[] {
  const m = new Map<number, number>();
  for (const v of values) m.set(histogramBucket(v), (m.get(histogramBucket(v)) ?? 0) + 1);
  return [...m].map(([bucket, count]) => ({ bucket, count }));
}

// Latencies as the app measures them: whole ms, mostly small, a long tail, sometimes negative (skew).
const latency = fc.oneof(
  fc.integer({ min: 0, max: 300 }),
  fc.integer({ min: 0, max: 120_000 }),
  fc.integer({ min: -5_000, max: 5_000 }),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
);

describe('latency histogram', () => {
  test('every whole ms up to 100,000 (and samples beyond) is reported within 2 %; below ~25 ms exactly', () => {
    for (let v = -100_000; v <= 100_000; v++) {
      const est = histogramValue(histogramBucket(v));
      assert.ok(within(est, v), `${v} → ${est}`);
      if (Math.abs(v) <= 24) assert.equal(est, v);
    }
    fc.assert(fc.property(latency, (v) => within(histogramValue(histogramBucket(v)), v)));
  });

  test('buckets keep the order of values', () => {
    fc.assert(
      fc.property(latency, latency, (a, b) => {
        if (a <= b) assert.ok(histogramValue(histogramBucket(a)) <= histogramValue(histogramBucket(b)));
      }),
    );
  });

  test('p50/p95/p99/max of random data are within the bound of the exact nearest-rank figures', () => {
    fc.assert(
      fc.property(fc.array(latency, { minLength: 0, maxLength: 400 }), (values) => {
        const exact = summarizeLatencies(values);
        const approx = summarizeHistogram(histogramOf(values));
        assert.equal(approx.count, exact.count);
        for (const k of ['p50', 'p95', 'p99', 'max'] as const) assert.ok(within(approx[k], exact[k]), `${k}: ${approx[k]} vs ${exact[k]}`);
      }),
      { numRuns: 300 },
    );
  });

  test('merging cells is order-independent, and cancelled counts (a late event moved a latency) vanish', () => {
    fc.assert(
      fc.property(fc.array(latency, { maxLength: 200 }), fc.array(fc.nat(), { maxLength: 200 }), (values, perm) => {
        const cells = histogramOf(values);
        const shuffled = [...cells];
        for (let i = 0; i < Math.min(perm.length, shuffled.length); i++) {
          const j = perm[i] % shuffled.length;
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        // Split every cell in two and add a +1/−1 pair: the sum is the same histogram.
        const split = shuffled.flatMap((c) => [
          { bucket: c.bucket, count: 1 },
          { bucket: c.bucket, count: c.count - 1 },
          { bucket: 7, count: 1 },
          { bucket: 7, count: -1 },
        ]);
        assert.deepEqual(summarizeHistogram(split), summarizeHistogram(cells));
      }),
    );
  });

  test("summarizing bucket counts is the nearest-rank summary of the buckets' values", () => {
    // The reference: every bucket with a positive count as its representative value, summarized as
    // exact counted latencies. Buckets from both signs and zero, counts from −3 (a late event's
    // retraction) up, so empty and negative cells are in the draw.
    const cells = fc.array(fc.tuple(fc.integer({ min: -60, max: 400 }), fc.integer({ min: -3, max: 4 })), { maxLength: 120 });
    fc.assert(
      fc.property(cells, (pairs) => {
        const counts = new Map<number, number>();
        for (const [bucket, count] of pairs) counts.set(bucket, (counts.get(bucket) ?? 0) + count);
        const reference = summarizeCountedLatencies(
          [...counts].filter(([, count]) => count > 0).map(([bucket, count]) => ({ value: histogramValue(bucket), count })),
        );
        assert.deepEqual(summarizeBucketCounts(counts), reference);
      }),
    );
  });

  test('keys round-trip', () => {
    for (const b of [-40, -2, -1, 0, 1, 500]) {
      assert.deepEqual(parseHistogramKey(histogramKey('refusal', b)), { metric: 'refusal', bucket: b });
      assert.deepEqual(parseHistogramKey(histogramKey('renegotiation', b)), { metric: 'renegotiation', bucket: b });
    }
    assert.equal(parseHistogramKey('refused'), null);
  });

  test('the backfill migrations carry the same bucket bounds as the code', () => {
    for (const provider of ['sqlite', 'postgresql']) {
      const sql = readFileSync(`prisma/${provider}/migrations/20261201020000_rollup_quarter_latency_histogram/migration.sql`, 'utf8');
      const values = sql.slice(
        sql.indexOf('INSERT INTO "_LatencyBucketBound"'),
        sql.indexOf(';', sql.indexOf('INSERT INTO "_LatencyBucketBound"')),
      );
      const pairs = [...values.matchAll(/\((\d+), (\d+)\)/g)].map((m) => [Number(m[1]), Number(m[2])]);
      assert.deepEqual(
        pairs,
        HISTOGRAM_UPPER_BOUNDS.map((u, k) => [k, u]),
      );
    }
  });
});

describe('histogram contributions in the rollup delta', () => {
  const anchors = (o: Partial<SessionAnchors>): SessionAnchors => ({
    firstEventAt: 0,
    boundaryAt: null,
    boundaryOutcome: null,
    answeredAt: null,
    refusedAt: null,
    refusalLatencyMs: null,
    dualNegotiationAt: null,
    burnedTokenReuseAt: null,
    deadlockStartedAt: null,
    deadlockEndedAt: null,
    successorOpenedAt: null,
    renegotiationLatencyMs: null,
    ...o,
  });
  const session = fc.record({
    refused: fc.boolean(),
    at: fc.integer({ min: 0, max: 10 * 60_000 }),
    lat: fc.integer({ min: 0, max: 5_000 }),
    reneg: fc.option(fc.integer({ min: -2_000, max: 5_000 }), { nil: null }),
    succAt: fc.integer({ min: 0, max: 40 * 60_000 }),
    lastAt: fc.integer({ min: 0, max: 40 * 60_000 }),
    checked: fc.nat({ max: 3 }),
    flags: fc.subarray(['resume_conflict', 'resume_after_end', 'unknown_cursor', 'abandoned', 'refused']),
  });
  const toAnchors = (s: {
    refused: boolean;
    at: number;
    lat: number;
    reneg: number | null;
    succAt: number;
    lastAt?: number;
    checked?: number;
    flags?: string[];
  }) =>
    anchors({
      lastEventAt: s.lastAt ?? null,
      checkedResumes: s.checked ?? 0,
      flags: (s.flags ?? []).join(' '),
      boundaryAt: s.at,
      boundaryOutcome: s.refused ? 'refused' : 'naive_resume',
      answeredAt: s.at + s.lat,
      refusedAt: s.refused ? s.at + s.lat : null,
      refusalLatencyMs: s.refused ? s.lat : null,
      successorOpenedAt: s.reneg === null ? null : s.succAt,
      renegotiationLatencyMs: s.reneg,
    });

  test('a refused session adds one to its bucket at the minute of refusedAt', () => {
    const c = sessionContributions(toAnchors({ refused: true, at: 61_000, lat: 40, reneg: null, succAt: 0 }));
    assert.deepEqual(
      c.filter((x) => x.column.startsWith('h:')),
      [{ minute: 60_000, column: histogramKey('refusal', histogramBucket(40)), value: 1, sample: 40 }],
    );
  });

  test('resumption health counts at the minute of the last event', () => {
    const c = sessionContributions(
      anchors({ lastEventAt: 125_000, checkedResumes: 2, rejectedResumes: 1, flags: 'abandoned renegotiated resume_conflict' }),
    );
    assert.deepEqual(
      c.filter((x) => x.minute === 120_000),
      [
        { minute: 120_000, column: 'checkedResumes', value: 2 },
        { minute: 120_000, column: 'rejectedResumes', value: 1 },
        { minute: 120_000, column: 'conflictSessions', value: 1 },
        { minute: 120_000, column: 'abandonedSessions', value: 1 },
      ],
    );
  });

  test('any order of adding and replacing sessions gives the same delta, and the quarter cells sum the minutes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(session, session), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 60 }), (pairs, perm) => {
        // Each session is first stored as `before`, then updated to `after` (a late event): −before +after.
        const ops: { a: SessionAnchors; sign: 1 | -1 }[] = pairs.flatMap(([before, after]) => [
          { a: toAnchors(before), sign: 1 as const },
          { a: toAnchors(before), sign: -1 as const },
          { a: toAnchors(after), sign: 1 as const },
        ]);
        const apply = (list: typeof ops) => {
          const delta: RollupDelta = new Map();
          for (const op of list) addContributions(delta, 'srv', sessionContributions(op.a), op.sign);
          pruneZeroCells(delta);
          return delta;
        };
        const shuffled = [...ops];
        for (let i = 0; i < Math.min(perm.length, shuffled.length); i++) {
          const j = perm[i] % shuffled.length;
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        const direct = apply(pairs.map(([, after]) => ({ a: toAnchors(after), sign: 1 as const })));
        const a = splitRollupDelta(apply(ops));
        const b = splitRollupDelta(apply(shuffled));
        const c = splitRollupDelta(direct);
        assert.deepEqual(a, b);
        // The counts; min/max differ by design: `before` was added and removed in one delta here,
        // which ingest never does (a delta removes a session's old row and adds its new one).
        const counts = (d: typeof a) => ({
          minutes: d.minutes,
          quarters: d.quarters,
          histogram: d.histogram.filter((r) => r[4] !== 0).map((r) => r.slice(0, 5)),
        });
        assert.deepEqual(counts(a), counts(c));
        // Quarter cells: the sums of their minute cells.
        const sums = new Map<string, Record<string, number>>();
        for (const m of a.minutes) {
          const k = `${m.server}|${Math.floor(m.minute / 900_000) * 900_000}`;
          const q = sums.get(k) ?? {};
          for (const [col, v] of Object.entries(m.values)) q[col] = (q[col] ?? 0) + (v ?? 0);
          sums.set(k, q);
        }
        assert.deepEqual(new Map(a.quarters.map((q) => [`${q.server}|${q.minute}`, q.values])), sums);
      }),
      { numRuns: 200 },
    );
  });
});
