// The contract's timestamp grammar as the regular expression it was parsed with until 5 Dec 2026:
// the reference the character scan (lib/contract/timestamp.ts) is tested against, and the baseline
// `npm run bench -- timestamp-parse` times it against.
const GRAMMAR = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})\.(\d{1,9})(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Epoch ms of a contract timestamp by the regular expression, or null: the reference. */
export function parseByGrammar(value: string): number | null {
  const m = GRAMMAR.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (month < 1 || month > 12) return null;
  if (day < 1 || day > (month === 2 && leap ? 29 : DAYS[month - 1])) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number(m[7].padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (!m[8]) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const utc = Date.UTC(year < 100 ? year + 400 : year, month - 1, day, hour, minute, second, millis);
  return (year < 100 ? utc - 12_622_780_800_000 : utc) - offsetMinutes * 60_000;
}

/** The regex form as ingest ran it: behind a 50,000-entry memo cleared when full. */
export function memoizedGrammar(): (value: string) => number | null {
  const memo = new Map<string, number | null>();
  return (value) => {
    const hit = memo.get(value);
    if (hit !== undefined) return hit;
    const ms = parseByGrammar(value);
    if (memo.size >= 50_000) memo.clear();
    memo.set(value, ms);
    return ms;
  };
}
