// Query-string parameters shared by the list endpoints, each with its own 400 code.
import { ApiError } from '@/lib/http/api-error';
import { parseInstantParam } from './time-range';

/** Values of a repeatable parameter; also accepts comma-separated lists (`flag=a,b`). */
export function manyParam(params: URLSearchParams, name: string): string[] {
  return params.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

/**
 * Optional `from`/`to` as exact instants (no minute alignment: rows carry ms times); either may be
 * left open. 400 `invalid_time_range` for a form we do not read or from >= to.
 */
export function parseOpenRange(params: URLSearchParams, nowMs: number): { fromMs: number | null; toMs: number | null } {
  const instant = (name: 'from' | 'to'): number | null => {
    const raw = params.get(name)?.trim();
    if (!raw) return null;
    return parseInstantParam(raw, nowMs, name);
  };
  const fromMs = instant('from');
  const toMs = instant('to');
  if (fromMs !== null && toMs !== null && !(fromMs < toMs)) throw new ApiError(400, 'invalid_time_range', 'from must be before to', {}, { param: 'range' });
  return { fromMs, toMs };
}

/** `limit` as an integer in [1, max], or the default; 400 `invalid_limit` otherwise. */
export function parseLimit(params: URLSearchParams, fallback: number, max: number): number {
  const raw = params.get('limit');
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new ApiError(400, 'invalid_limit', `limit must be an integer from 1 to ${max}`);
  }
  return Number(raw);
}
