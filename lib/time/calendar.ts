// Calendar arithmetic in UTC for the units of the instant grammar (Grafana's: s m h d w M y).
// Weeks start on Monday (ISO 8601). Months and years are calendar units: adding one keeps the
// day of the month, clamped to the month's length (Jan 31 + 1M = Feb 28/29), as Grafana does.

export type TimeUnit = 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y';
export const TIME_UNITS: readonly TimeUnit[] = ['s', 'm', 'h', 'd', 'w', 'M', 'y'];

export const SECOND_MS = 1000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** Fixed-length units; M and y depend on the calendar. */
export const FIXED_UNIT_MS: Record<Exclude<TimeUnit, 'M' | 'y'>, number> = {
  s: SECOND_MS,
  m: MINUTE_MS,
  h: HOUR_MS,
  d: DAY_MS,
  w: WEEK_MS,
};

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/** `ms` plus `n` units; NaN when the result is outside what a Date can hold. */
export function addUnits(ms: number, n: number, unit: TimeUnit): number {
  if (unit !== 'M' && unit !== 'y') return ms + n * FIXED_UNIT_MS[unit];
  const d = new Date(ms);
  const months = d.getUTCFullYear() * 12 + d.getUTCMonth() + (unit === 'y' ? 12 * n : n);
  const year = Math.floor(months / 12);
  const month0 = months - year * 12;
  // Far beyond any accepted instant: report NaN rather than let Date wrap or lose precision.
  if (!Number.isSafeInteger(months) || Math.abs(year) > 300_000) return Number.NaN;
  const day = Math.min(d.getUTCDate(), daysInMonth(year, month0));
  const out = new Date(0);
  out.setUTCFullYear(year, month0, day);
  out.setUTCHours(d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
  return out.getTime();
}

/** First millisecond of the unit containing `ms` (UTC). */
export function startOfUnit(ms: number, unit: TimeUnit): number {
  switch (unit) {
    case 's':
    case 'm':
    case 'h':
    case 'd':
      return Math.floor(ms / FIXED_UNIT_MS[unit]) * FIXED_UNIT_MS[unit];
    case 'w': {
      const day = startOfUnit(ms, 'd');
      const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
      return day - sinceMonday * DAY_MS;
    }
    case 'M': {
      const d = new Date(ms);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
    case 'y':
      return Date.UTC(new Date(ms).getUTCFullYear(), 0, 1);
  }
}

/** Last millisecond of the unit containing `ms` (UTC), like Grafana's endOf. */
export function endOfUnit(ms: number, unit: TimeUnit): number {
  return addUnits(startOfUnit(ms, unit), 1, unit) - 1;
}
