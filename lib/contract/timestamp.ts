/**
 * RFC 3339 timestamps as used by the event contract: a fractional-seconds part
 * is mandatory (senders must report at least millisecond resolution), offsets
 * are allowed. Parsed by hand rather than with Date.parse so that acceptance
 * does not depend on the JS engine's lenient date parser.
 */
const RFC3339_FRACTIONAL =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})\.(\d{1,9})(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/** Epoch milliseconds for a contract timestamp, or null if it is not one. Sub-millisecond digits are truncated. */
export function parseTimestampMs(value: string): number | null {
  const m = RFC3339_FRACTIONAL.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number(m[7].padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, millis);
  return d.getTime() - offsetMinutes * 60_000;
}

/** Canonical summary form: UTC, millisecond precision. */
export function toIsoMs(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Epoch ms of a timestamp already accepted by the schema; throws on anything else (a programming error). */
export function timestampMs(value: string): number {
  const ms = parseTimestampMs(value);
  if (ms === null) throw new RangeError(`not a contract timestamp: ${JSON.stringify(value)}`);
  return ms;
}
