// `from`/`to` of the list endpoints (parsed by the route's zod query schema as strings).
import { ApiError } from '@/lib/http/api-error';
import { parseInstant } from './time-range';

/**
 * Optional `from`/`to` as exact instants (no minute alignment: rows carry ms times); either may be
 * left open. 400 `invalid_time_range` for a form we do not read or from >= to.
 */
export function parseOpenRange(range: { from?: string; to?: string }, nowMs: number): { fromMs: number | null; toMs: number | null } {
  const instant = (name: 'from' | 'to'): number | null => {
    const raw = range[name]?.trim();
    if (!raw) return null;
    const ms = parseInstant(raw, nowMs);
    if (ms === null) throw new ApiError(400, 'invalid_time_range', `${name}=${JSON.stringify(raw)} is not a time (use RFC 3339, epoch ms, or now-15m style)`);
    return ms;
  };
  const fromMs = instant('from');
  const toMs = instant('to');
  if (fromMs !== null && toMs !== null && !(fromMs < toMs)) throw new ApiError(400, 'invalid_time_range', 'from must be before to');
  return { fromMs, toMs };
}
