// A short human label for a range, e.g. "Last 1 hour", "Since now-3h" or
// "2026-11-29 10:00 → 11:00" (instants written by the caller's formatter, in the zone it shows).
import { isRelative } from './instant';
import { presetFor } from './presets';
import { DEFAULT_RANGE, resolveExactRange, resolveTimeRangeOrDefault } from './range';

export function describeRange(from: string, to: string, fmt: (ms: number) => string, nowMs: number): string {
  const preset = presetFor(from, to);
  if (preset) return preset.label;
  if (isRelative(from) && to === DEFAULT_RANGE.to) return `Since ${from}`;
  const r = resolveTimeRangeOrDefault(from, to, nowMs, resolveExactRange);
  const a = fmt(r.fromMs);
  const b = fmt(r.toMs);
  // Same day: write the date once ("2026-11-29 19:53 → 19:54").
  return a.slice(0, 10) === b.slice(0, 10) && b.length > 11 ? `${a} → ${b.slice(11)}` : `${a} → ${b}`;
}

const DATED = /\b(\d{4})-(\d\d-\d\d \d\d:\d\d)/g;

/**
 * The label without the year when every date in it is in `year` ("12-01 20:29 → 21:29"): the top
 * bar's range button must fit one row at 1280 px with an absolute range. Any other year keeps all.
 */
export function withoutYear(label: string, year: string): string {
  const years = [...label.matchAll(DATED)].map((m) => m[1]);
  return years.length && years.every((y) => y === year) ? label.replace(DATED, '$2') : label;
}
