// The one list of series bucket sizes and the one chooser, used by the stats API (default bucket)
// and the UI (the bucket it asks for), so both pick the same size for the same range. Buckets are
// aligned to multiples of their size since the epoch (daily buckets are UTC days).
import { DAY_MS, HOUR_MS, MINUTE_MS, WEEK_MS } from './calendar';
import { BucketError } from './errors';

/** The chooser keeps a series to at most this many points. */
export const TARGET_POINTS = 200;
/** An explicit bucket may give at most this many points. */
export const MAX_POINTS = 1500;

export interface Bucket {
  expr: string;
  ms: number;
}

export const BUCKETS: readonly Bucket[] = [
  { expr: '1m', ms: MINUTE_MS },
  { expr: '5m', ms: 5 * MINUTE_MS },
  { expr: '15m', ms: 15 * MINUTE_MS },
  { expr: '30m', ms: 30 * MINUTE_MS },
  { expr: '1h', ms: HOUR_MS },
  { expr: '3h', ms: 3 * HOUR_MS },
  { expr: '6h', ms: 6 * HOUR_MS },
  { expr: '12h', ms: 12 * HOUR_MS },
  { expr: '1d', ms: DAY_MS },
  { expr: '1w', ms: WEEK_MS },
];

const BUCKET_UNIT_MS: Record<string, number> = { m: MINUTE_MS, h: HOUR_MS, d: DAY_MS, w: WEEK_MS };

/** The smallest listed bucket giving ≤ TARGET_POINTS over `rangeMs`; past the list, whole minutes. */
export function chooseBucket(rangeMs: number): Bucket {
  const width = Math.max(rangeMs, MINUTE_MS);
  const listed = BUCKETS.find((b) => Math.ceil(width / b.ms) <= TARGET_POINTS);
  if (listed) return listed;
  const minutes = Math.ceil(width / TARGET_POINTS / MINUTE_MS);
  return { expr: `${minutes}m`, ms: minutes * MINUTE_MS };
}

/** ms of a bucket expression (`5m`, `1h`, `1d`, `1w`: a positive whole number of m/h/d/w), or null. */
export function parseBucket(expr: string | null | undefined): number | null {
  const m = /^(\d{1,6})([mhdw])$/.exec(expr?.trim() ?? '');
  if (!m || Number(m[1]) === 0) return null;
  return Number(m[1]) * BUCKET_UNIT_MS[m[2]];
}

/** An explicit bucket if given (BucketError when malformed or too fine for the range), else the chooser's. */
export function resolveBucket(param: string | null | undefined, rangeMs: number): number {
  if (param === null || param === undefined || param.trim() === '') return chooseBucket(rangeMs).ms;
  const ms = parseBucket(param);
  if (ms === null) throw new BucketError(`bucket=${JSON.stringify(param)}: use a whole number of m, h, d or w, e.g. 5m`);
  if (Math.ceil(rangeMs / ms) > MAX_POINTS) {
    throw new BucketError(`bucket=${param} gives more than ${MAX_POINTS} points for this range; choose a larger bucket`);
  }
  return ms;
}

/** Bucket starts covering [fromMs, toMs). */
export function bucketStarts(fromMs: number, toMs: number, bucketMs: number): number[] {
  const out: number[] = [];
  for (let t = Math.floor(fromMs / bucketMs) * bucketMs; t < toMs; t += bucketMs) out.push(t);
  return out;
}
