// Time ranges for the query API: RFC 3339, epoch milliseconds, or Grafana-style relative forms
// (`now`, `now-15m`, `now-1h`, `now-24h`, `now-7d`, also s/w units and `now+5m`). The resolved
// range is [from, to) aligned to whole minutes, the resolution of the rollups, so that counts
// (from rollups) and exact latency percentiles (from session rows) describe the same sessions.
import { ApiError } from '@/lib/http/api-error';
import { parseTimestampMs } from '@/lib/contract/timestamp';
import { MINUTE_MS } from '@/lib/metrics/rollup-contributions';

export const DEFAULT_FROM = 'now-24h';
export const DEFAULT_TO = 'now';
/** Longest range accepted (about 13 months). */
export const MAX_RANGE_MS = 400 * 24 * 60 * 60 * 1000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: MINUTE_MS, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const RELATIVE = /^now(?:([+-])(\d{1,9})(ms|s|m|h|d|w))?$/;
const RFC3339_NO_FRACTION = /^(\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2})([Zz]|[+-]\d{2}:\d{2})$/;

export interface TimeRange {
  fromMs: number;
  toMs: number;
  fromInput: string;
  toInput: string;
}

/** Epoch ms for one instant, or null if it is not a form we accept. */
export function parseInstant(input: string, nowMs: number): number | null {
  const s = input.trim();
  const rel = RELATIVE.exec(s);
  if (rel) {
    if (!rel[1]) return nowMs;
    const offset = Number(rel[2]) * UNIT_MS[rel[3]];
    return rel[1] === '-' ? nowMs - offset : nowMs + offset;
  }
  if (/^\d{10,16}$/.test(s)) return Number(s);
  const noFraction = RFC3339_NO_FRACTION.exec(s);
  return parseTimestampMs(noFraction ? `${noFraction[1]}.000${noFraction[2]}` : s);
}

export const floorMinute = (ms: number): number => Math.floor(ms / MINUTE_MS) * MINUTE_MS;
export const ceilMinute = (ms: number): number => Math.ceil(ms / MINUTE_MS) * MINUTE_MS;

/** Parses `from`/`to` (defaults now-24h … now); 400 `invalid_time_range` on anything unusable. */
export function parseTimeRange(from: string | null | undefined, to: string | null | undefined, nowMs: number): TimeRange {
  const fromInput = from?.trim() || DEFAULT_FROM;
  const toInput = to?.trim() || DEFAULT_TO;
  const f = parseInstant(fromInput, nowMs);
  if (f === null) throw invalid(`from=${JSON.stringify(fromInput)} is not a time (use RFC 3339, epoch ms, or now-15m style)`);
  const t = parseInstant(toInput, nowMs);
  if (t === null) throw invalid(`to=${JSON.stringify(toInput)} is not a time (use RFC 3339, epoch ms, or now-15m style)`);
  if (!(f < t)) throw invalid(`from (${fromInput}) must be before to (${toInput})`);
  const fromMs = floorMinute(f);
  const toMs = ceilMinute(t);
  if (toMs - fromMs > MAX_RANGE_MS) throw invalid('the range may span at most 400 days');
  return { fromMs, toMs, fromInput, toInput };
}

function invalid(message: string): ApiError {
  return new ApiError(400, 'invalid_time_range', message);
}
