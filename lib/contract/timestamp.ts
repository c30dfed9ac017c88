/**
 * RFC 3339 timestamps as used by the event contract: a fractional-seconds part
 * is mandatory (senders must report at least millisecond resolution), offsets
 * are allowed. Parsed by hand rather than with Date.parse so that acceptance
 * does not depend on the JS engine's lenient date parser.
 */
const RFC3339_FRACTIONAL = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})\.(\d{1,9})(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Accepted instants: 1970-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z. */
export const MIN_TIMESTAMP_MS = 0;
export const MAX_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

function parseUncached(value: string): number | null {
  const m = RFC3339_FRACTIONAL.exec(value);
  if (!m) return null;
  const year = +m[1],
    month = +m[2],
    day = +m[3],
    hour = +m[4],
    minute = +m[5],
    second = +m[6];
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
  // Date.UTC maps years 0-99 to 1900-1999; the contract's four-digit years start at 0000.
  const utc = Date.UTC(year < 100 ? year + 400 : year, month - 1, day, hour, minute, second, millis);
  return (year < 100 ? utc - 12_622_780_800_000 : utc) - offsetMinutes * 60_000;
}

// The fold reads each event's `at` several times and ingest re-reads stored timelines: a small
// memo makes a repeated parse a map lookup (profiled at ~12% of ingest CPU before).
const memo = new Map<string, number | null>();
const MEMO_SIZE = 50_000;

/** Epoch milliseconds for a contract timestamp, or null if it is not one. Sub-millisecond digits are truncated. */
export function parseTimestampMs(value: string): number | null {
  const hit = memo.get(value);
  if (hit !== undefined) return hit;
  const ms = parseUncached(value);
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(value, ms);
  return ms;
}

/**
 * Epoch ms of a timestamp events may carry: well formed AND an instant, after its offset, that
 * every part of the system can hold (JS Date, both databases, the time module), else null.
 * `9999-12-31T23:59:59.999-23:59` is well formed but past the end.
 */
export function eventTimestampMs(value: string): number | null {
  const ms = parseTimestampMs(value);
  return ms !== null && ms >= MIN_TIMESTAMP_MS && ms <= MAX_TIMESTAMP_MS ? ms : null;
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
