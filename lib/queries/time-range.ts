// The query API's edge to lib/time: the same grammar, default range and checks as the UI, with
// lib/time's typed errors turned into 400 answers that name the parameter.
import { ApiError } from '@/lib/http/api-error';
import { BucketError, TimeRangeError } from '@/lib/time/errors';
import { resolveBucket } from '@/lib/time/buckets';
import { resolveInstant, resolveTimeRange, type TimeRange } from '@/lib/time/range';
import type { InstantEdge } from '@/lib/time/instant';

export type { TimeRange };

/** Maps a lib/time error to its 400; anything else is rethrown unchanged. */
export function timeApiError(err: unknown): unknown {
  if (err instanceof TimeRangeError) return new ApiError(400, err.code, err.message, {}, { param: err.param });
  if (err instanceof BucketError) return new ApiError(400, err.code, err.message, {}, { param: 'bucket' });
  return err;
}

function atEdge<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw timeApiError(err);
  }
}

/** `from`/`to` resolved and minute-aligned (default: lib/time's DEFAULT_RANGE); 400 `invalid_time_range`. */
export function parseTimeRange(from: string | null | undefined, to: string | null | undefined, nowMs: number): TimeRange {
  return atEdge(() => resolveTimeRange(from, to, nowMs));
}

/** One exact instant (no alignment); 400 `invalid_time_range` naming the parameter. */
export function parseInstantParam(input: string, nowMs: number, edge: InstantEdge): number {
  return atEdge(() => resolveInstant(input, nowMs, edge));
}

/** `bucket=` if given, else the shared chooser's; 400 `invalid_bucket`. */
export function resolveBucketMs(param: string | null | undefined, rangeMs: number): number {
  return atEdge(() => resolveBucket(param, rangeMs));
}
