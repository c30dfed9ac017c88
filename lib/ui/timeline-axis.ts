/**
 * The session timeline's horizontal axis: which events a view shows and where, in either spacing
 * (linear time, or evenly spaced in timeline order), over the whole session or a zoom window.
 * Also the view's URL state: `?spacing=time|sequence` (absent: automatic) and `?zoom=ISO/ISO`.
 *
 * Pure: no React, no DOM. The chart (components/sessions/timeline/) draws what this says.
 */
import { formatInstant, parseInstant } from '@/lib/time/instant';

export type Spacing = 'time' | 'sequence';

/** A time window on the axis, epoch ms, `fromMs < toMs`. */
export interface ZoomWindow {
  fromMs: number;
  toMs: number;
}

/** Narrower than this the axis cannot say anything timestamps (ms precision) do not already. */
export const MIN_ZOOM_MS = 2;

/**
 * Even spacing when linear time would crush neighbours together (a 48 ms refusal next to a 300 s
 * deadlock): labels need ~90 px, so two events closer than 8 % of the span on a ~1100 px axis.
 */
export function autoSpacing(times: readonly number[], endMs: number): Spacing {
  if (times.length < 3) return 'time';
  const span = Math.max(endMs, times[times.length - 1]) - times[0];
  if (span <= 0) return 'sequence';
  let minGap = Infinity;
  for (let i = 1; i < times.length; i++) minGap = Math.min(minGap, times[i] - times[i - 1]);
  return minGap / span < 0.08 ? 'sequence' : 'time';
}

export type ParamResult<T> = { ok: true; value: T } | { ok: false; problem: string };

/** `?spacing=`: absent or empty is automatic (null). */
export function parseSpacing(raw: string | null): ParamResult<Spacing | null> {
  if (raw === null || raw === '') return { ok: true, value: null };
  if (raw === 'time' || raw === 'sequence') return { ok: true, value: raw };
  return { ok: false, problem: `spacing "${raw}" is neither "time" nor "sequence"` };
}

/**
 * `?zoom=FROM/TO`, two absolute instants (RFC 3339 as the chart writes them, or epoch ms).
 * Relative forms are refused: a zoom names a moment of one session, and a link must show that
 * moment tomorrow too.
 */
export function parseZoom(raw: string | null): ParamResult<ZoomWindow | null> {
  if (raw === null || raw === '') return { ok: true, value: null };
  const parts = raw.split('/');
  if (parts.length !== 2 || parts.some((p) => /^\s*now/i.test(p)))
    return { ok: false, problem: `zoom "${raw}" is not two absolute instants joined by "/"` };
  const [fromMs, toMs] = parts.map((p) => parseInstant(p, 0));
  if (fromMs === null || toMs === null) return { ok: false, problem: `zoom "${raw}" is not two absolute instants joined by "/"` };
  if (toMs - fromMs < MIN_ZOOM_MS)
    return { ok: false, problem: `zoom "${raw}" ends before it starts (or spans less than ${MIN_ZOOM_MS} ms)` };
  return { ok: true, value: { fromMs, toMs } };
}

export function formatZoom(z: ZoomWindow): string {
  return `${formatInstant(z.fromMs)}/${formatInstant(z.toMs)}`;
}

/**
 * A zoom window limited to the session's extent; null when it covers all of it (no zoom) or
 * misses it entirely (nothing to show: the caller says so and shows the whole session).
 */
export function clampZoom(z: ZoomWindow, extent: ZoomWindow): { zoom: ZoomWindow | null; outside: boolean } {
  const fromMs = Math.max(z.fromMs, extent.fromMs);
  const toMs = Math.min(z.toMs, extent.toMs);
  if (toMs < fromMs || (toMs === fromMs && extent.toMs > extent.fromMs)) return { zoom: null, outside: true };
  if (fromMs <= extent.fromMs && toMs >= extent.toMs) return { zoom: null, outside: false };
  return { zoom: widen({ fromMs, toMs }, extent), outside: false };
}

/** Grows a window narrower than MIN_ZOOM_MS around its centre, inside the extent where possible. */
function widen(z: ZoomWindow, extent: ZoomWindow): ZoomWindow {
  if (z.toMs - z.fromMs >= MIN_ZOOM_MS) return z;
  const mid = (z.fromMs + z.toMs) / 2;
  return shiftInto({ fromMs: mid - MIN_ZOOM_MS / 2, toMs: mid + MIN_ZOOM_MS / 2 }, extent);
}

/** Moves a window (keeping its span) so it lies inside the extent, or returns the extent if wider. */
function shiftInto(z: ZoomWindow, extent: ZoomWindow): ZoomWindow {
  const span = z.toMs - z.fromMs;
  if (span >= extent.toMs - extent.fromMs) return { ...extent };
  if (z.fromMs < extent.fromMs) return { fromMs: extent.fromMs, toMs: extent.fromMs + span };
  if (z.toMs > extent.toMs) return { fromMs: extent.toMs - span, toMs: extent.toMs };
  return z;
}

/**
 * One step out: three times the span around the same centre, kept inside the session; null
 * (no zoom) once that covers the whole session.
 */
export function zoomOut(z: ZoomWindow, extent: ZoomWindow): ZoomWindow | null {
  const mid = (z.fromMs + z.toMs) / 2;
  const span = (z.toMs - z.fromMs) * 3;
  const next = shiftInto({ fromMs: mid - span / 2, toMs: mid + span / 2 }, extent);
  return next.fromMs <= extent.fromMs && next.toMs >= extent.toMs ? null : next;
}

/**
 * A window from a to b with a quarter of that span either side (at least 5 ms), so the first and
 * last events are not on the frame; limited to the session. Null when that is the whole session.
 */
export function windowAround(a: number, b: number, extent: ZoomWindow): ZoomWindow | null {
  const pad = Math.max((b - a) / 4, 5);
  return clampZoom({ fromMs: a - pad, toMs: b + pad }, extent).zoom;
}

/**
 * The door and the resume that came at it: from the `upgrade.accepted` to the resume that
 * answered the boundary (or asked to cross it); without a resume, the door and the next event.
 * Null without a door.
 */
export function doorWindow(times: readonly number[], doorIdx: number, resumeIdx: number, extent: ZoomWindow): ZoomWindow | null {
  if (doorIdx < 0 || doorIdx >= times.length) return null;
  const a = times[doorIdx];
  const b = resumeIdx > doorIdx && resumeIdx < times.length ? times[resumeIdx] : (times[doorIdx + 1] ?? a);
  return windowAround(a, b, extent);
}

export interface AxisInput {
  /** Event times, epoch ms, in timeline order. */
  times: readonly number[];
  /** Where the session ends on the axis: its last event, or "now" while a deadlock is ongoing. */
  endMs: number;
  /** A trailing "now" slot after the last event (ongoing deadlock). */
  ongoing: boolean;
  spacing: Spacing;
  zoom: ZoomWindow | null;
  /** The plot's left and right edges (px). */
  left: number;
  right: number;
}

export interface Axis {
  spacing: Spacing;
  /** The time window shown: the zoom, or the whole session. */
  domain: ZoomWindow;
  /** The session's whole extent (first event to end). */
  extent: ZoomWindow;
  /** Whether event i is inside the window (drawn with its dot, tick and label). */
  visible: (i: number) => boolean;
  /** Indices of the events inside the window, in order. */
  shown: number[];
  /**
   * Where event i sits. Off-window events sit beyond the plot edges in linear time, on the edges
   * when evenly spaced, so a lane segment from one of them is cut at the edge by `clip`.
   */
  x: (i: number) => number;
  /** Where "now" (the end of an ongoing deadlock) sits; the last event's place otherwise. */
  endX: number;
  /** Whether the end ("now", or the last event) is inside the window. */
  endVisible: boolean;
  /** Where a moment sits (linear time; between neighbours when evenly spaced). */
  xAt: (ms: number) => number;
  /** The moment at a pixel (for the brush): the inverse of xAt within the plot. */
  invert: (px: number) => number;
  /** Limits a span to the plot. */
  clip: (x: number) => number;
  left: number;
  right: number;
}

export function buildAxis({ times, endMs, ongoing, spacing, zoom, left, right }: AxisInput): Axis {
  const n = times.length;
  const first = n ? times[0] : endMs;
  const extent: ZoomWindow = { fromMs: first, toMs: Math.max(endMs, n ? times[n - 1] : endMs) };
  const domain = zoom ?? extent;
  const plotW = Math.max(1, right - left);
  const inWindow = (t: number) => t >= domain.fromMs && t <= domain.toMs;
  const shown = times.map((_, i) => i).filter((i) => inWindow(times[i]));
  const endVisible = inWindow(extent.toMs);
  const clip = (px: number) => Math.min(right, Math.max(left, px));

  if (spacing === 'time') {
    const span = Math.max(domain.toMs - domain.fromMs, 1);
    const xAt = (ms: number) => left + ((ms - domain.fromMs) / span) * plotW;
    return {
      spacing,
      domain,
      extent,
      visible: (i) => inWindow(times[i]),
      shown,
      x: (i) => xAt(times[i]),
      endX: xAt(extent.toMs),
      endVisible,
      xAt,
      // The true width, not span: when every event shares one instant the window is that instant
      // (span is only kept ≥ 1 ms so xAt never divides by zero).
      invert: (px) => domain.fromMs + ((clip(px) - left) / plotW) * (domain.toMs - domain.fromMs),
      clip,
      left,
      right,
    };
  }

  // Evenly spaced: one slot per shown event (and for "now" when it is in the window); half a slot
  // of margin on a side where the window cuts events off, so the lanes show something came before.
  const nowSlot = ongoing && endVisible;
  const slots = shown.length + (nowSlot ? 1 : 0);
  const before = zoom !== null && times.some((t) => t < domain.fromMs);
  const after = zoom !== null && (times.some((t) => t > domain.toMs) || (ongoing && !endVisible));
  const units = Math.max(0, slots - 1) + (before ? 0.5 : 0) + (after ? 0.5 : 0);
  const slotX = (j: number) => (units === 0 ? left + plotW / 2 : left + (((before ? 0.5 : 0) + j) / units) * plotW);
  const rank = new Map(shown.map((i, j) => [i, j]));
  const x = (i: number): number => {
    const j = rank.get(i);
    if (j !== undefined) return slotX(j);
    return times[i] < domain.fromMs ? left : right;
  };
  const endX = nowSlot ? slotX(slots - 1) : ongoing ? right : n ? x(n - 1) : left;
  // Anchors for moments between events: each shown event (and "now") at its slot.
  const anchors: [number, number][] = shown.map((i) => [times[i], x(i)]);
  if (nowSlot) anchors.push([extent.toMs, endX]);
  const xAt = (ms: number): number => {
    if (!anchors.length) return left;
    if (ms <= anchors[0][0]) return ms < anchors[0][0] && before ? left : anchors[0][1];
    for (let k = 1; k < anchors.length; k++) {
      const [t1, x1] = anchors[k];
      const [t0, x0] = anchors[k - 1];
      if (ms <= t1) return t1 === t0 ? x1 : x0 + ((ms - t0) / (t1 - t0)) * (x1 - x0);
    }
    return ms > anchors[anchors.length - 1][0] && after ? right : anchors[anchors.length - 1][1];
  };
  const invert = (px: number): number => {
    const p = clip(px);
    if (!anchors.length) return domain.fromMs;
    if (p <= anchors[0][1]) {
      const x0 = anchors[0][1];
      return before && x0 > left ? domain.fromMs + ((p - left) / (x0 - left)) * (anchors[0][0] - domain.fromMs) : anchors[0][0];
    }
    for (let k = 1; k < anchors.length; k++) {
      const [t1, x1] = anchors[k];
      const [t0, x0] = anchors[k - 1];
      if (p <= x1) return x1 === x0 ? t1 : t0 + ((p - x0) / (x1 - x0)) * (t1 - t0);
    }
    const [tl, xl] = anchors[anchors.length - 1];
    return after && right > xl ? tl + ((p - xl) / (right - xl)) * (domain.toMs - tl) : tl;
  };
  return { spacing, domain, extent, visible: (i) => rank.has(i), shown, x, endX, endVisible, xAt, invert, clip, left, right };
}
