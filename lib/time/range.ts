// The one resolver for a from/to pair and the one default range, for the query API and the UI.
// A resolved range is [from, to) widened to whole minutes (from down, to up): the resolution of
// the rollups, so counts (rollups) and exact percentiles (session rows) describe the same
// sessions, and the UI computes the same width, hence the same bucket, as the server.
import { MINUTE_MS } from './calendar';
import { TimeRangeError } from './errors';
import { formatInstant, MAX_INSTANT_MS, MIN_INSTANT_MS, readInstant, type InstantEdge } from './instant';

/** The range shown when none is given, by the server and the UI alike. */
export const DEFAULT_RANGE = { from: 'now-15m', to: 'now' } as const;

/** Longest range accepted (about 13 months). */
export const MAX_RANGE_DAYS = 400;
export const MAX_RANGE_MS = MAX_RANGE_DAYS * 24 * 60 * MINUTE_MS;

export interface TimeRange {
  fromMs: number;
  toMs: number;
  /** The inputs as given (defaults filled in), so a caller can keep a relative range relative. */
  fromInput: string;
  toInput: string;
}

export const floorMinute = (ms: number): number => Math.floor(ms / MINUTE_MS) * MINUTE_MS;
export const ceilMinute = (ms: number): number => Math.ceil(ms / MINUTE_MS) * MINUTE_MS;

const FORMS = 'use RFC 3339 / ISO 8601 with an offset, epoch ms, or now-15m, now-1d/d style';

/** One instant of a range; TimeRangeError naming the parameter when unusable. */
export function resolveInstant(input: string, nowMs: number, edge: InstantEdge): number {
  const r = readInstant(input, nowMs, edge);
  if (r.ok) return r.ms;
  if (r.problem === 'syntax') throw new TimeRangeError(edge, `${edge}=${JSON.stringify(input)} is not a time (${FORMS})`);
  throw new TimeRangeError(
    edge,
    `${edge}=${JSON.stringify(input)} is outside the supported instants ${formatInstant(MIN_INSTANT_MS)} … ${formatInstant(MAX_INSTANT_MS)}`,
  );
}

/**
 * Resolves `from`/`to` (empty or missing: DEFAULT_RANGE), aligned outward to whole minutes: what
 * the query API reads and what the UI sizes buckets by. Throws TimeRangeError when an instant is
 * unusable, from is not before to, or the range is longer than MAX_RANGE_MS.
 */
export function resolveTimeRange(from: string | null | undefined, to: string | null | undefined, nowMs: number): TimeRange {
  const exact = resolveExactRange(from, to, nowMs);
  const aligned = { ...exact, fromMs: floorMinute(exact.fromMs), toMs: ceilMinute(exact.toMs) };
  if (aligned.toMs - aligned.fromMs > MAX_RANGE_MS) throw new TimeRangeError('range', `the range may span at most ${MAX_RANGE_DAYS} days`);
  return aligned;
}

/** The same checks on the exact instants, unaligned: for moving a window without widening it (navigation). */
export function resolveExactRange(from: string | null | undefined, to: string | null | undefined, nowMs: number): TimeRange {
  const fromInput = from?.trim() || DEFAULT_RANGE.from;
  const toInput = to?.trim() || DEFAULT_RANGE.to;
  const fromMs = resolveInstant(fromInput, nowMs, 'from');
  const toMs = resolveInstant(toInput, nowMs, 'to');
  if (!(fromMs < toMs)) throw new TimeRangeError('range', `from (${fromInput}) must be before to (${toInput})`);
  if (toMs - fromMs > MAX_RANGE_MS) throw new TimeRangeError('range', `the range may span at most ${MAX_RANGE_DAYS} days`);
  return { fromMs, toMs, fromInput, toInput };
}

/** For display code that must always draw something: the range, or the default one when it is unusable. */
export function resolveTimeRangeOrDefault(from: string, to: string, nowMs: number, resolve = resolveTimeRange): TimeRange {
  try {
    return resolve(from, to, nowMs);
  } catch (err) {
    if (err instanceof TimeRangeError) return resolve(DEFAULT_RANGE.from, DEFAULT_RANGE.to, nowMs);
    throw err;
  }
}
