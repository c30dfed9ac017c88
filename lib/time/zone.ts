// The zone a time is shown or typed in. 'utc', 'local' (this JavaScript runtime's own zone), or an
// IANA name: the operator's browser zone by name, so the server renders the same wall-clock text
// the browser will (a text that differs between the two makes React discard the server's HTML).

export type TimeZone = 'utc' | 'local' | (string & {});

export interface WallClock {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  ms: number;
}

/** This runtime's own zone by name (the server's on the server, the browser's in the browser); null if unnamed. */
export const RUNTIME_ZONE: string | null = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
})();

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = null; // not a zone this runtime knows
    }
    if (formatters.size < 64) formatters.set(zone, f);
  }
  return f;
}

/** An IANA zone name this runtime knows (a cookie's value is checked with this before it is used). */
export function isZoneName(name: string): boolean {
  return name.length > 0 && name.length <= 64 && /^[A-Za-z0-9_+\-/]+$/.test(name) && formatterFor(name) !== null;
}

/** The wall clock at `ms` in `zone` (an unknown zone name reads as UTC). */
export function wallClock(ms: number, zone: TimeZone): WallClock {
  const d = new Date(ms);
  if (zone === 'local' || (zone !== 'utc' && zone === RUNTIME_ZONE))
    return {
      y: d.getFullYear(),
      mo: d.getMonth() + 1,
      d: d.getDate(),
      h: d.getHours(),
      mi: d.getMinutes(),
      s: d.getSeconds(),
      ms: d.getMilliseconds(),
    };
  const f = zone === 'utc' ? null : formatterFor(zone);
  if (!f)
    return {
      y: d.getUTCFullYear(),
      mo: d.getUTCMonth() + 1,
      d: d.getUTCDate(),
      h: d.getUTCHours(),
      mi: d.getUTCMinutes(),
      s: d.getUTCSeconds(),
      ms: d.getUTCMilliseconds(),
    };
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(d)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  // Offsets are whole seconds in every zone: the milliseconds are the UTC ones.
  return { y: p.year, mo: p.month, d: p.day, h: p.hour % 24, mi: p.minute, s: p.second, ms: d.getUTCMilliseconds() };
}

/** The zone's offset from UTC at `ms`, in minutes (+330 for Asia/Kolkata). */
export function zoneOffsetMinutes(ms: number, zone: TimeZone): number {
  const w = wallClock(ms, zone);
  return Math.round((Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s, w.ms) - ms) / 60_000);
}

/**
 * The instant a wall-clock time names in `zone`. In a DST overlap (the hour read twice) the earlier
 * one; in a gap (an hour that does not exist) the offset from before the change.
 */
export function fromWallClock(w: WallClock, zone: TimeZone): number {
  if (zone === 'local') return new Date(w.y, w.mo - 1, w.d, w.h, w.mi, w.s, w.ms).getTime();
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s, w.ms);
  if (zone === 'utc') return asUtc;
  // Offsets never change twice within two days: the instant is asUtc minus one of these.
  const before = asUtc - zoneOffsetMinutes(asUtc - 86_400_000, zone) * 60_000;
  const after = asUtc - zoneOffsetMinutes(asUtc + 86_400_000, zone) * 60_000;
  const exact = [before, after].filter((t) => asUtc - zoneOffsetMinutes(t, zone) * 60_000 === t);
  return exact.length ? Math.min(...exact) : before;
}
