// Moving through time from the picker and the keyboard: shift, zoom out, freeze. Each takes the
// range as written in the URL and returns absolute instants in the canonical form, exact (not
// widened to minutes) so that moving a window and moving it back gives the same window.
import { formatInstant } from './instant';
import { resolveExactRange, resolveTimeRangeOrDefault } from './range';

// A type alias (not an interface) so it spreads into the URL patch type.
export type RangeInputs = { from: string; to: string };

/** Shift the window by a fraction of its width (negative = earlier). */
export function shiftRange(from: string, to: string, fraction: number, nowMs: number): RangeInputs {
  const r = resolveTimeRangeOrDefault(from, to, nowMs, resolveExactRange);
  const delta = Math.round((r.toMs - r.fromMs) * fraction);
  return { from: formatInstant(r.fromMs + delta), to: formatInstant(r.toMs + delta) };
}

/** Zoom out around the centre (factor 2 = twice as wide), never past now. */
export function zoomOutRange(from: string, to: string, factor: number, nowMs: number): RangeInputs {
  const r = resolveTimeRangeOrDefault(from, to, nowMs, resolveExactRange);
  const width = r.toMs - r.fromMs;
  const centre = r.fromMs + width / 2;
  const half = (width * factor) / 2;
  const start = Math.max(Math.round(centre - half), 0);
  const end = Math.max(Math.min(Math.round(centre + half), nowMs), r.toMs);
  return { from: formatInstant(start), to: formatInstant(end) };
}

/** Freeze a (possibly relative) range into the absolute instants it means now: a link that shows the same data later. */
export function freezeRange(from: string, to: string, nowMs: number): RangeInputs {
  const r = resolveTimeRangeOrDefault(from, to, nowMs, resolveExactRange);
  return { from: formatInstant(r.fromMs), to: formatInstant(r.toMs) };
}
