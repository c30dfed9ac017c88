// Series bucket size: the smallest "nice" size that keeps a range to at most TARGET_POINTS
// buckets, or an explicit `bucket=` (e.g. 5m, 1h, 1d) within MAX_POINTS. Buckets are aligned
// to multiples of their size since the epoch (so daily buckets are UTC days).
import { ApiError } from '@/lib/http/api-error';
import { MINUTE_MS } from '@/lib/metrics/rollup-contributions';

export const TARGET_POINTS = 200;
export const MAX_POINTS = 1500;
export const NICE_BUCKETS_MINUTES = [1, 5, 15, 30, 60, 180, 360, 720, 1440, 10080] as const;

export function chooseBucketMs(rangeMs: number): number {
  for (const m of NICE_BUCKETS_MINUTES) if (Math.ceil(rangeMs / (m * MINUTE_MS)) <= TARGET_POINTS) return m * MINUTE_MS;
  return Math.ceil(rangeMs / TARGET_POINTS / MINUTE_MS) * MINUTE_MS;
}

const UNITS: Record<string, number> = { m: MINUTE_MS, h: 60 * MINUTE_MS, d: 1440 * MINUTE_MS, w: 10080 * MINUTE_MS };

/** `bucket=` if given (400 `invalid_bucket` if malformed or too fine for the range), else the automatic choice. */
export function resolveBucketMs(param: string | null | undefined, rangeMs: number): number {
  if (param === null || param === undefined || param.trim() === '') return chooseBucketMs(rangeMs);
  const m = /^(\d{1,6})(m|h|d|w)$/.exec(param.trim());
  if (!m || Number(m[1]) === 0) throw new ApiError(400, 'invalid_bucket', `bucket=${JSON.stringify(param)}: use a whole number of m, h, d or w, e.g. 5m`);
  const ms = Number(m[1]) * UNITS[m[2]];
  if (Math.ceil(rangeMs / ms) > MAX_POINTS) {
    throw new ApiError(400, 'invalid_bucket', `bucket=${param} gives more than ${MAX_POINTS} points for this range; choose a larger bucket`);
  }
  return ms;
}

/** Bucket starts covering [fromMs, toMs). */
export function bucketStarts(fromMs: number, toMs: number, bucketMs: number): number[] {
  const out: number[] = [];
  for (let t = Math.floor(fromMs / bucketMs) * bucketMs; t < toMs; t += bucketMs) out.push(t);
  return out;
}
