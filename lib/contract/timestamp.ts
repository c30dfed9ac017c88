/**
 * RFC 3339 timestamps as used by the event contract: a fractional-seconds part
 * is mandatory (senders must report at least millisecond resolution), offsets
 * are allowed. Parsed by hand rather than with Date.parse so that acceptance
 * does not depend on the JS engine's lenient date parser. The grammar, as a
 * regular expression (tests/unit/timestamp-parser.test.ts holds the parser to it):
 * `^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})\.(\d{1,9})(?:[Zz]|[+-]\d{2}:\d{2})$`
 */

/** Accepted instants: 1970-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z. */
export const MIN_TIMESTAMP_MS = 0;
export const MAX_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

const ZERO = 48;

/** The value of `n` ASCII digits of `s` from `at`, or -1 if any is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * Epoch milliseconds for a contract timestamp, or null if it is not one. Sub-millisecond digits are truncated.
 * A character scan, not the regular expression: ~0.2 µs a parse against ~0.5 µs, and no memo (the regex form
 * kept one, whose hashing and upkeep cost more than the parses it saved; docs/benchmarks.md, write path v2).
 */
export function parseTimestampMs(value: string): number | null {
  const len = value.length;
  // The shortest form is 2026-01-01T00:00:00.0Z (22), the longest has 9 digits and an offset (35).
  if (len < 22 || len > 35) return null;
  if (
    value.charCodeAt(4) !== 45 ||
    value.charCodeAt(7) !== 45 ||
    (value.charCodeAt(10) !== 84 && value.charCodeAt(10) !== 116) ||
    value.charCodeAt(13) !== 58 ||
    value.charCodeAt(16) !== 58 ||
    value.charCodeAt(19) !== 46
  )
    return null;
  const year = digits(value, 0, 4),
    month = digits(value, 5, 2),
    day = digits(value, 8, 2),
    hour = digits(value, 11, 2),
    minute = digits(value, 14, 2),
    second = digits(value, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  // The fraction: 1–9 digits; only the first three count (sub-millisecond digits are truncated).
  let i = 20;
  let millis = 0;
  while (i < len && i < 29) {
    const d = value.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) break;
    if (i < 23) millis = millis * 10 + d;
    i++;
  }
  const fraction = i - 20;
  if (fraction === 0) return null;
  if (fraction < 3) millis *= fraction === 1 ? 100 : 10;
  let offsetMinutes = 0;
  const zone = value.charCodeAt(i);
  if (zone === 90 || zone === 122) {
    if (i + 1 !== len) return null;
  } else if (zone === 43 || zone === 45) {
    if (i + 6 !== len || value.charCodeAt(i + 3) !== 58) return null;
    const oh = digits(value, i + 1, 2);
    const om = digits(value, i + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return null;
    offsetMinutes = (zone === 45 ? -1 : 1) * (oh * 60 + om);
  } else return null;
  if (month < 1 || month > 12) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  // Date.UTC maps years 0-99 to 1900-1999; the contract's four-digit years start at 0000.
  const utc = Date.UTC(year < 100 ? year + 400 : year, month - 1, day, hour, minute, second, millis);
  return (year < 100 ? utc - 12_622_780_800_000 : utc) - offsetMinutes * 60_000;
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
