// Verdict rules, the reader's-clock session view, and the latency histogram.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { verdictOf } from '@/lib/queries/server-verdicts';
import { bucketLatency, splitLatencyRows } from '@/lib/queries/stats';
import {
  REFUSAL_HISTOGRAM_COLUMNS,
  REFUSAL_HISTOGRAM_EDGES,
  refusalHistogramBuckets,
  refusalHistogramColumn,
  refusalHistogramIndex,
} from '@/lib/metrics/refusal-histogram';
import { ROLLUP_COLUMNS, sessionContributions } from '@/lib/metrics/rollup-contributions';
import { summarizeCountedLatencies } from '@/lib/metrics/percentiles';
import { deadlockOf, flagsOf, toSessionView } from '@/lib/queries/session-view';
import { ZSessionView } from '@/lib/contract/api/sessions';
import type { SessionRow } from '@/lib/store/session-row';

const zero = { boundary: 0, refused: 0, naiveResumes: 0, dualNegotiations: 0, burnedTokenReuses: 0 };

describe('server verdict', () => {
  test('unknown until a boundary resume was answered', () => {
    assert.equal(verdictOf(zero), 'unknown');
    assert.equal(verdictOf({ ...zero, boundary: 2 }), 'unknown'); // pending answers prove nothing
  });
  test('refuses when every answered boundary resume was refused', () => {
    assert.equal(verdictOf({ ...zero, boundary: 3, refused: 3 }), 'refuses');
    assert.equal(verdictOf({ ...zero, boundary: 4, refused: 3 }), 'refuses'); // one still pending
  });
  test('naive on any naive resume, dual negotiation or burned-token reuse', () => {
    assert.equal(verdictOf({ ...zero, boundary: 10, refused: 9, naiveResumes: 1 }), 'naive');
    assert.equal(verdictOf({ ...zero, dualNegotiations: 1 }), 'naive');
    assert.equal(verdictOf({ ...zero, boundary: 1, refused: 1, burnedTokenReuses: 1 }), 'naive');
  });
});

describe('refusal latency histogram', () => {
  test('fixed edges, upper bound inclusive (as Prometheus le), open-ended last bucket', () => {
    // As the rollups hold it: one counter per column, then the API's buckets.
    const perColumn = REFUSAL_HISTOGRAM_COLUMNS.map(() => 0);
    for (const ms of [0, 9, 10, 49, 50, 199, 200, 4999, 5000, 60_000])
      perColumn[REFUSAL_HISTOGRAM_COLUMNS.indexOf(refusalHistogramColumn(ms))]++;
    const h = refusalHistogramBuckets(perColumn);
    const counts = Object.fromEntries(h.map((b) => [`${b.fromMs}-${b.toMs ?? 'inf'}`, b.count]));
    assert.deepEqual(counts, {
      '0-10': 3,
      '10-25': 0,
      '25-50': 2,
      '50-100': 0,
      '100-200': 2,
      '200-500': 0,
      '500-1000': 0,
      '1000-2000': 0,
      '2000-5000': 2,
      '5000-inf': 1,
    });
  });

  test('one rollup column per bucket, named by its bounds; every edge counts latency ≤ edge (Prometheus le)', () => {
    assert.equal(REFUSAL_HISTOGRAM_COLUMNS.length, refusalHistogramBuckets([]).length);
    assert.equal(refusalHistogramColumn(0), 'refusedLe10ms');
    assert.equal(refusalHistogramColumn(10), 'refusedLe10ms');
    assert.equal(refusalHistogramColumn(11), 'refusedLe25ms');
    assert.equal(refusalHistogramColumn(50), 'refusedLe50ms');
    assert.equal(refusalHistogramColumn(51), 'refusedLe100ms');
    assert.equal(refusalHistogramColumn(200), 'refusedLe200ms');
    assert.equal(refusalHistogramColumn(201), 'refusedLe500ms');
    assert.equal(refusalHistogramColumn(5000), 'refusedLe5000ms');
    assert.equal(refusalHistogramColumn(5001), 'refusedGt5000ms');
    for (const [i, edge] of REFUSAL_HISTOGRAM_EDGES.entries()) {
      assert.equal(refusalHistogramIndex(edge), i, `${edge} ms is under its own edge`);
      assert.equal(refusalHistogramIndex(edge + 1), i + 1);
    }
    for (const col of REFUSAL_HISTOGRAM_COLUMNS) assert.ok((ROLLUP_COLUMNS as readonly string[]).includes(col));
  });

  test('a refused session adds one to its latency bucket at the minute of the answer; nothing else does', () => {
    const base = {
      firstEventAt: 0,
      boundaryAt: 61_000,
      answeredAt: 61_040,
      refusedAt: 61_040,
      refusalLatencyMs: 40,
      dualNegotiationAt: null,
      burnedTokenReuseAt: null,
      deadlockStartedAt: null,
      deadlockEndedAt: null,
      successorOpenedAt: null,
      renegotiationLatencyMs: null,
    };
    const hist = (outcome: string) =>
      sessionContributions({ ...base, boundaryOutcome: outcome }).filter((c) =>
        (REFUSAL_HISTOGRAM_COLUMNS as readonly string[]).includes(c.column),
      );
    assert.deepEqual(hist('refused'), [{ minute: 60_000, column: 'refusedLe50ms', value: 1 }]);
    assert.deepEqual(hist('naive_resume'), []);
  });
});

describe('per-bucket latency percentiles', () => {
  // A known timeline at 1-minute buckets, as (bucket, value, count) rows from GROUP BY 1, 2.
  // Minute 10: 20 refusals — 18 × 40 ms, 1 × 90 ms, 1 × 700 ms; minute 11: 3 × 55 ms; minute 13: none.
  const M = 60_000;
  const rows = [
    { b: 10, value: 40, count: 18 },
    { b: '10', value: '700', count: 1n }, // drivers may return strings / bigints
    { b: 10n, value: 90, count: '1' },
    { b: 11, value: 55, count: 3 },
  ];

  test('nearest rank within each bucket; the range totals are the rows merged per value', () => {
    const { byBucket, total } = splitLatencyRows(rows, M);
    assert.deepEqual([...byBucket.keys()].sort(), [10 * M, 11 * M]);
    // n = 20: p50 = rank 10 (40), p95 = rank 19 (90), max 700.
    assert.deepEqual(bucketLatency(byBucket.get(10 * M)), { count: 20, min: 40, p50: 40, p95: 90, max: 700 });
    assert.deepEqual(bucketLatency(byBucket.get(11 * M)), { count: 3, min: 55, p50: 55, p95: 55, max: 55 });
    assert.deepEqual(bucketLatency(byBucket.get(13 * M)), { count: 0, min: null, p50: null, p95: null, max: null });
    // Over the range, n = 23: rank 12 is 40, rank 22 is 90.
    assert.deepEqual(summarizeCountedLatencies(total), { count: 23, p50: 40, p95: 90, p99: 700, max: 700 });
  });

  test('the same value in two buckets is merged once in the totals', () => {
    const { total } = splitLatencyRows(
      [
        { b: 1, value: 50, count: 2 },
        { b: 2, value: 50, count: 3 },
      ],
      M,
    );
    assert.deepEqual(total, [{ value: 50, count: 5 }]);
  });
});

function row(over: Partial<SessionRow>): SessionRow {
  return {
    server: 's',
    token: 't',
    state: 'upgrade_pending',
    flags: 'boundary naive_resume',
    boundaryOutcome: 'naive_resume',
    openedAt: 1000,
    firstEventAt: 1000,
    lastEventAt: 5000,
    eventCount: 5,
    boundaryAt: 4000,
    answeredAt: 5000,
    refusedAt: null,
    refusalLatencyMs: null,
    naiveResumeAt: 5000,
    dualNegotiationAt: null,
    dualNegotiationCount: 0,
    burnedTokenReuseAt: null,
    dropCount: 1,
    deadlockStartedAt: 5000,
    deadlockEndedAt: null,
    deadlockDurationMs: null,
    previousToken: null,
    successorServer: null,
    successorToken: null,
    successorOpenedAt: null,
    renegotiationLatencyMs: null,
    fBoundary: 1,
    fRefused: 0,
    fNaiveResume: 1,
    fDualNegotiation: 0,
    fRenegotiated: 0,
    fBurnedTokenReuse: 0,
    updatedAt: 6000,
    synthetic: 0,
    version: null,
    instance: null,
    foldState: null,
    checkedResumes: 0,
    lossyResumes: 0,
    idleResumes: 0,
    rejectedResumes: 0,
    abandonedAt: null,
    ...over,
  };
}

describe('session view (reader’s clock)', () => {
  test('an unended naive resume is a candidate until the threshold, then an ongoing deadlock', () => {
    const r = row({});
    assert.equal(deadlockOf(r, 14_999, 10_000, 0), null);
    assert.deepEqual(flagsOf(r, 14_999, 10_000, 0), ['boundary', 'naive_resume']);
    assert.deepEqual(deadlockOf(r, 15_000, 10_000, 0), {
      startedAt: new Date(5000).toISOString(),
      endedAt: null,
      durationMs: 10_000,
      ongoing: true,
    });
    assert.deepEqual(flagsOf(r, 15_000, 10_000, 0), ['boundary', 'deadlock', 'naive_resume']);
    const v = toSessionView(r, 20_000, 10_000, 0);
    ZSessionView.parse(v);
    assert.equal(v.deadlockCandidateSince, new Date(5000).toISOString());
    assert.equal(v.deadlock!.durationMs, 15_000);
  });

  test('an ended deadlock is reported as stored whatever the clock', () => {
    const r = row({ flags: 'boundary deadlock naive_resume', deadlockEndedAt: 305_000, deadlockDurationMs: 300_000, state: 'terminated' });
    for (const now of [0, 1e13]) {
      assert.deepEqual(deadlockOf(r, now, 10_000, 0), {
        startedAt: new Date(5000).toISOString(),
        endedAt: new Date(305_000).toISOString(),
        durationMs: 300_000,
        ongoing: false,
      });
      assert.ok(flagsOf(r, now, 10_000, 0).includes('deadlock'));
    }
    assert.equal(toSessionView(r, 0, 10_000, 0).deadlockCandidateSince, null);
  });

  test('with a maximum, an unended deadlock that old is "end unreported": a deadlock still, no longer ongoing', () => {
    const r = row({});
    // Started at 5,000; threshold 10 s, maximum 60 s.
    assert.equal(deadlockOf(r, 64_999, 10_000, 60_000)!.ongoing, true);
    const at = (now: number) => deadlockOf(r, now, 10_000, 60_000);
    for (const now of [65_000, 1e13]) {
      assert.deepEqual(at(now), {
        startedAt: new Date(5000).toISOString(),
        endedAt: null,
        durationMs: 60_000,
        ongoing: false,
        endUnreported: true,
      });
      assert.deepEqual(flagsOf(r, now, 10_000, 60_000), ['boundary', 'deadlock', 'naive_resume']);
    }
    const v = toSessionView(r, 1e13, 10_000, 60_000);
    ZSessionView.parse(v);
    assert.equal(v.deadlockCandidateSince, new Date(5000).toISOString(), 'still unended');
    // An ended one is what it was, and without a maximum (0) nothing ever is unreported.
    const ended = row({ flags: 'boundary deadlock naive_resume', deadlockEndedAt: 305_000, state: 'terminated' });
    assert.equal(deadlockOf(ended, 1e13, 10_000, 60_000)!.endedAt, new Date(305_000).toISOString());
    assert.equal(deadlockOf(r, 1e13, 10_000, 0)!.ongoing, true);
  });
});
