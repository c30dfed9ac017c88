// What one session adds to the per-server, per-minute rollups. Pure: ingest computes the
// contributions of a session's stored row before and after an update and applies the
// difference, so late and out-of-order events move counts between minutes instead of
// double-counting them, and the totals never depend on arrival order.
import { REFUSAL_HISTOGRAM_COLUMNS, refusalHistogramColumn } from './refusal-histogram';
import { histogramBucket, histogramKey, type HistogramKey } from './latency-histogram';
import { extremesMatter, noteSample, type CellExtremes } from './histogram-extremes';

/** Session resumption counters summed as they are (SessionRow columns of the same names). */
export const RESUMPTION_SUMS = ['checkedResumes', 'lossyResumes', 'idleResumes', 'rejectedResumes'] as const;
/** Rollup column → resumption flag (in the session's flags text) counted as sessions. */
export const RESUMPTION_FLAG_COLUMNS = [
  ['conflictSessions', 'resume_conflict'],
  ['endedSessionResumes', 'resume_after_end'],
  ['unknownCursorSessions', 'unknown_cursor'],
  ['abandonedSessions', 'abandoned'],
] as const;
/** The resumption rollup columns, named as the API's resumption health fields. */
export const RESUMPTION_COLUMNS = [...RESUMPTION_SUMS, ...RESUMPTION_FLAG_COLUMNS.map(([c]) => c)] as const;

export const ROLLUP_COLUMNS = [
  'events',
  'sessions',
  'drops',
  'boundary',
  'refused',
  'naiveResumes',
  'dualNegotiations',
  'burnedReuses',
  'deadlocks',
  'deadlockIdleMs',
  'renegotiations',
  'renegLe200ms',
  ...REFUSAL_HISTOGRAM_COLUMNS,
  // For the Prometheus histograms (lib/prometheus): latency sums and the 50 ms mark.
  'refusalLatencyMsSum',
  'renegLe50ms',
  'renegLatencyMsSum',
  // SSE resumption health, at the minute of the session's last event (as the stats range selects it).
  ...RESUMPTION_COLUMNS,
] as const;
export type RollupColumn = (typeof ROLLUP_COLUMNS)[number];
/** A counter of a rollup cell: a "Rollup" column, or a latency-histogram bucket ("LatencyHistogram" row). */
export type RollupKey = RollupColumn | HistogramKey;

export const MINUTE_MS = 60_000;
/** The design note's marks, counted as Prometheus's `le`: a renegotiation of exactly 200 ms is within 200 ms. */
export const RENEGOTIATION_FAST_MS = 200;
export const RENEGOTIATION_VERY_FAST_MS = 50;

/** Columns holding millisecond sums (BIGINT), not counts. */
export const ROLLUP_MS_COLUMNS: readonly RollupColumn[] = ['deadlockIdleMs', 'refusalLatencyMsSum', 'renegLatencyMsSum'];

export const minuteOf = (epochMs: number): number => Math.floor(epochMs / MINUTE_MS) * MINUTE_MS;

/** The time anchors of one stored session (epoch ms), as kept in its summary row. */
export interface SessionAnchors {
  firstEventAt: number;
  boundaryAt: number | null;
  boundaryOutcome: string | null;
  answeredAt: number | null;
  refusedAt: number | null;
  refusalLatencyMs: number | null;
  dualNegotiationAt: number | null;
  burnedTokenReuseAt: number | null;
  deadlockStartedAt: number | null;
  deadlockEndedAt: number | null;
  successorOpenedAt: number | null;
  renegotiationLatencyMs: number | null;
  /** Resumption health (absent: none); counted at lastEventAt. */
  lastEventAt?: number | null;
  checkedResumes?: number;
  lossyResumes?: number;
  idleResumes?: number;
  rejectedResumes?: number;
  /** The row's space-separated flags text. */
  flags?: string;
}

export interface Contribution {
  minute: number;
  column: RollupKey;
  value: number;
  /** For a latency-histogram bucket: the latency (ms) counted, for the cell's exact min and max. */
  sample?: number;
}

export function sessionContributions(a: SessionAnchors): Contribution[] {
  const out: Contribution[] = [];
  const add = (at: number | null, column: RollupKey, value = 1, sample?: number) => {
    if (at !== null) out.push({ minute: minuteOf(at), column, value, ...(sample === undefined ? {} : { sample }) });
  };
  add(a.firstEventAt, 'sessions');
  add(a.boundaryAt, 'boundary');
  if (a.boundaryOutcome === 'refused') {
    add(a.answeredAt, 'refused');
    if (a.refusalLatencyMs !== null) {
      add(a.answeredAt, refusalHistogramColumn(a.refusalLatencyMs));
      add(a.answeredAt, 'refusalLatencyMsSum', a.refusalLatencyMs);
    }
  }
  if (a.boundaryOutcome === 'naive_resume') add(a.answeredAt, 'naiveResumes');
  add(a.dualNegotiationAt, 'dualNegotiations');
  add(a.burnedTokenReuseAt, 'burnedReuses');
  // Only ended deadlocks are counted here; ongoing ones depend on the reader's clock and
  // are added at query time from the sessions table.
  if (a.deadlockStartedAt !== null && a.deadlockEndedAt !== null) {
    add(a.deadlockStartedAt, 'deadlocks');
    add(a.deadlockStartedAt, 'deadlockIdleMs', a.deadlockEndedAt - a.deadlockStartedAt);
  }
  add(a.successorOpenedAt, 'renegotiations');
  if (a.renegotiationLatencyMs !== null && a.renegotiationLatencyMs <= RENEGOTIATION_FAST_MS) {
    add(a.successorOpenedAt, 'renegLe200ms');
  }
  if (a.renegotiationLatencyMs !== null && a.renegotiationLatencyMs <= RENEGOTIATION_VERY_FAST_MS) {
    add(a.successorOpenedAt, 'renegLe50ms');
  }
  if (a.renegotiationLatencyMs !== null) add(a.successorOpenedAt, 'renegLatencyMsSum', a.renegotiationLatencyMs);
  for (const c of RESUMPTION_SUMS) {
    const v = Number(a[c] ?? 0);
    if (v !== 0) add(a.lastEventAt ?? null, c, v);
  }
  if (a.flags) {
    const flags = new Set(a.flags.split(' '));
    for (const [c, flag] of RESUMPTION_FLAG_COLUMNS) if (flags.has(flag)) add(a.lastEventAt ?? null, c);
  }
  // The percentile histograms, anchored as the exact percentiles select their sessions (lib/queries/stats.ts).
  if (a.boundaryOutcome === 'refused' && a.refusalLatencyMs !== null) {
    add(a.refusedAt, histogramKey('refusal', histogramBucket(a.refusalLatencyMs)), 1, a.refusalLatencyMs);
  }
  if (a.renegotiationLatencyMs !== null) {
    add(a.successorOpenedAt, histogramKey('renegotiation', histogramBucket(a.renegotiationLatencyMs)), 1, a.renegotiationLatencyMs);
  }
  return out;
}

/**
 * Cells keyed by `${server}|${minute}` with per-column deltas; zero deltas are dropped. `extremes`:
 * per histogram bucket, the latencies added and removed (lib/metrics/histogram-extremes.ts).
 */
export type RollupDelta = Map<
  string,
  { server: string; minute: number; values: Partial<Record<RollupKey, number>>; extremes?: Map<HistogramKey, CellExtremes> }
>;

export function addContributions(delta: RollupDelta, server: string, items: readonly Contribution[], sign: 1 | -1): void {
  for (const c of items) {
    const key = `${server}|${c.minute}`;
    let cell = delta.get(key);
    if (!cell) delta.set(key, (cell = { server, minute: c.minute, values: {} }));
    cell.values[c.column] = (cell.values[c.column] ?? 0) + sign * c.value;
    if (c.sample !== undefined) noteSample((cell.extremes ??= new Map()), c.column as HistogramKey, c.sample, sign);
  }
}

/**
 * Drops zero deltas, and the extremes that change nothing (a session re-counted with the same
 * latency: removed and added again), so an unchanged session writes nothing.
 */
export function pruneZeroCells(delta: RollupDelta): void {
  for (const [key, cell] of delta) {
    for (const col of Object.keys(cell.values) as RollupKey[]) if (cell.values[col] === 0) delete cell.values[col];
    if (cell.extremes) {
      for (const [col, e] of cell.extremes) if (!cell.values[col] && !extremesMatter(e)) cell.extremes.delete(col);
      if (cell.extremes.size === 0) delete cell.extremes;
    }
    if (Object.keys(cell.values).length === 0 && !cell.extremes) delta.delete(key);
  }
}
