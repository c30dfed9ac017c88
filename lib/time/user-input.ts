// What a person types into the picker's from/to fields: anything the instant grammar reads, or
// "YYYY-MM-DD HH:MM[:SS[.mmm]]" read in the zone the UI displays (the only place the local zone
// matters). Returns the URL form: relative kept as typed, absolute as canonical UTC ISO.
import { formatInstant, inBounds, isRelative, parseInstant } from './instant';
import { fromWallClock, type TimeZone } from './zone';

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

export function parseUserTime(input: string, zone: TimeZone, nowMs: number): string | null {
  const s = input.trim();
  if (!s) return null;
  if (isRelative(s)) return parseInstant(s, nowMs) === null ? null : s;
  const m = WALL_CLOCK.exec(s);
  if (m) {
    const [y, mo, d, h, mi, sec, ms] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0', (m[7] ?? '0').padEnd(3, '0')].map(Number);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59) return null;
    const t = fromWallClock({ y, mo, d, h, mi, s: sec, ms }, zone);
    return inBounds(t) ? formatInstant(t) : null;
  }
  const t = parseInstant(s, nowMs);
  return t === null ? null : formatInstant(t);
}
