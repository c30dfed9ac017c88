// `from`/`to` of the list endpoints (parsed by the route's zod query schema as strings).
import { ApiError } from '@/lib/http/api-error';
import { parseInstantParam } from './time-range';

/**
 * Optional `from`/`to` as exact instants (no minute alignment: rows carry ms times); either may be
 * left open. 400 `invalid_time_range` for a form we do not read or from >= to.
 */
export function parseOpenRange(range: { from?: string; to?: string }, nowMs: number): { fromMs: number | null; toMs: number | null } {
  const instant = (name: 'from' | 'to'): number | null => {
    const raw = range[name]?.trim();
    if (!raw) return null;
    return parseInstantParam(raw, nowMs, name);
  };
  const fromMs = instant('from');
  const toMs = instant('to');
  if (fromMs !== null && toMs !== null && !(fromMs < toMs))
    throw new ApiError(400, 'invalid_time_range', 'from must be before to', {}, { param: 'range' });
  return { fromMs, toMs };
}
