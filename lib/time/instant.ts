// The one grammar for an instant, shared by the query API and the UI:
//   relative   now, now-15m, now+1h, with units s m h d w M y (as Grafana),
//              optionally rounded: now/d, now-1d/d, now/w (UTC; weeks start on Monday);
//   ISO 8601   with an offset, with or without fractional seconds: 2026-11-29T10:00:00Z,
//              2026-11-29T11:00:00.250+01:00;
//   epoch ms   1796032800000.
// Rounding follows Grafana: a `from` rounds down to the start of the unit, a `to` up to its last
// millisecond, so `now-1d/d … now-1d/d` is the whole of yesterday. Everything resolves in UTC; the
// UI's UTC/local toggle changes only how instants are displayed.
import { MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS, parseTimestampMs } from '@/lib/contract/timestamp';
import { addUnits, endOfUnit, startOfUnit, type TimeUnit } from './calendar';

/** Which end of a range an instant is: decides the direction of rounding. */
export type InstantEdge = 'from' | 'to';

/** Accepted instants: 1970-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z. */
export const MIN_INSTANT_MS = MIN_TIMESTAMP_MS;
export const MAX_INSTANT_MS = MAX_TIMESTAMP_MS;

export type InstantResult = { ok: true; ms: number } | { ok: false; problem: 'syntax' | 'bounds' };

const RELATIVE = /^now(?:([+-])(\d{1,9})([smhdwMy]))?(?:\/([smhdwMy]))?$/;
const EPOCH_MS = /^\d{10,}$/;
const ISO_NO_FRACTION = /^(\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2})([Zz]|[+-]\d{2}:\d{2})$/;

export const inBounds = (ms: number): boolean => Number.isFinite(ms) && ms >= MIN_INSTANT_MS && ms <= MAX_INSTANT_MS;

/** Reads one instant; says whether a failure is the form (`syntax`) or the value (`bounds`). */
export function readInstant(input: string, nowMs: number, edge: InstantEdge = 'from'): InstantResult {
  const s = input.trim();
  const ms = relativeMs(s, nowMs, edge) ?? absoluteMs(s);
  if (ms === null) return { ok: false, problem: 'syntax' };
  return inBounds(ms) ? { ok: true, ms } : { ok: false, problem: 'bounds' };
}

/** Epoch ms of an instant, or null when it is not one we accept (bad form or out of bounds). */
export function parseInstant(input: string, nowMs: number, edge: InstantEdge = 'from'): number | null {
  const r = readInstant(input, nowMs, edge);
  return r.ok ? r.ms : null;
}

/** True for the `now…` forms, which move with the clock. */
export function isRelative(input: string): boolean {
  return RELATIVE.test(input.trim());
}

/** Canonical absolute form: UTC ISO 8601 with milliseconds (parses back to the same instant). */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}

/** Rounds to the unit as the given edge of a range: start of the unit for `from`, its end for `to`. */
export function roundInstant(ms: number, unit: TimeUnit, edge: InstantEdge): number {
  return edge === 'from' ? startOfUnit(ms, unit) : endOfUnit(ms, unit);
}

function relativeMs(s: string, nowMs: number, edge: InstantEdge): number | null {
  const m = RELATIVE.exec(s);
  if (!m) return null;
  let ms = nowMs;
  if (m[1]) ms = addUnits(ms, (m[1] === '-' ? -1 : 1) * Number(m[2]), m[3] as TimeUnit);
  // Out of range already: rounding a Date past its limits would only produce NaN.
  if (m[4] && inBounds(ms)) ms = roundInstant(ms, m[4] as TimeUnit, edge);
  return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
}

function absoluteMs(s: string): number | null {
  if (EPOCH_MS.test(s)) return Number(s);
  const noFraction = ISO_NO_FRACTION.exec(s);
  return parseTimestampMs(noFraction ? `${noFraction[1]}.000${noFraction[2]}` : s);
}
