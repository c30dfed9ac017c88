/**
 * RFC 3339 timestamps as used by the event contract: a fractional-seconds part
 * is mandatory (senders must report at least millisecond resolution), offsets
 * are allowed. Parsed by hand rather than with Date.parse so that acceptance
 * does not depend on the JS engine's lenient date parser. The grammar is
 *   YYYY-MM-DD(T|t)hh:mm:ss.F{1,9}(Z|z|(+|-)hh:mm)     (ASCII digits only)
 * read character by character: the regex and its eleven captured substrings cost a third of
 * validating an event (docs/benchmarks.md, "Write path v2"). tests/unit/timestamp-parse.test.ts
 * holds the regex form this replaced and proves the same accepted set and values.
 */

/** Accepted instants: 1970-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z. */
export const MIN_TIMESTAMP_MS = 0;
export const MAX_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

const ZERO = 48; // '0'
const DASH = 45; // '-'
const PLUS = 43; // '+'
const COLON = 58; // ':'
const DOT = 46; // '.'

/** The ASCII digit at i (0–9), or -1 (also past the end: charCodeAt gives NaN there). */
function digitAt(s: string, i: number): number {
  const d = s.charCodeAt(i) - ZERO;
  return d >= 0 && d <= 9 ? d : -1;
}

/** Two ASCII digits at i as a number (0–99), or -1. */
function twoDigitsAt(s: string, i: number): number {
  const a = digitAt(s, i);
  const b = digitAt(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

function parseUncached(value: string): number | null {
  const n = value.length;
  // 19 characters of date and time, '.', 1–9 digits, then 'Z' or an offset of 6.
  if (n < 22 || n > 35) return null;
  const century = twoDigitsAt(value, 0);
  const yy = twoDigitsAt(value, 2);
  const month = twoDigitsAt(value, 5);
  const day = twoDigitsAt(value, 8);
  const hour = twoDigitsAt(value, 11);
  const minute = twoDigitsAt(value, 14);
  const second = twoDigitsAt(value, 17);
  if ((century | yy | month | day | hour | minute | second) < 0) return null;
  const t = value.charCodeAt(10);
  if (value.charCodeAt(4) !== DASH || value.charCodeAt(7) !== DASH || (t !== 84 && t !== 116)) return null; // T t
  if (value.charCodeAt(13) !== COLON || value.charCodeAt(16) !== COLON || value.charCodeAt(19) !== DOT) return null;
  // The fraction: 1–9 digits, of which the first three are the milliseconds (sub-milliseconds truncated).
  let i = 20;
  let millis = 0;
  for (let d = digitAt(value, i); d >= 0; d = digitAt(value, ++i)) if (i < 23) millis = millis * 10 + d;
  const fractionDigits = i - 20;
  if (fractionDigits < 1 || fractionDigits > 9) return null;
  if (fractionDigits < 3) millis *= fractionDigits === 1 ? 100 : 10;
  let offsetMinutes = 0;
  const zone = value.charCodeAt(i);
  if (zone === 90 || zone === 122) {
    // Z z
    if (i + 1 !== n) return null;
  } else if (zone === PLUS || zone === DASH) {
    if (i + 6 !== n || value.charCodeAt(i + 3) !== COLON) return null;
    const oh = twoDigitsAt(value, i + 1);
    const om = twoDigitsAt(value, i + 4);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return null;
    offsetMinutes = (zone === DASH ? -1 : 1) * (oh * 60 + om);
  } else return null;
  const year = century * 100 + yy;
  if (month < 1 || month > 12) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
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

/**
 * True when a timestamp the contract accepted is already in its canonical form (what toIsoMs of
 * its instant gives: `YYYY-MM-DDThh:mm:ss.mmmZ`), so it can be kept as it is instead of parsed
 * and formatted again. Only the length and the two letters need checking: the contract's grammar
 * and bounds fix the rest (a four-digit year from 1970, three fraction digits, upper-case T and Z).
 */
export function isCanonicalIso(accepted: string): boolean {
  return accepted.length === 24 && accepted.charCodeAt(10) === 84 && accepted.charCodeAt(23) === 90; // T Z
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
