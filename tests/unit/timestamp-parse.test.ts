// The contract's timestamp parser is read character by character (lib/contract/timestamp.ts); it
// replaced a regex. The regex form is kept here as the reference: on a table of tricky inputs and
// on generated near-misses the new parser accepts and refuses the same strings, with the same
// epoch ms, and so does the event schema's refinement (eventTimestampMs). isCanonicalIso, which
// lets ingest keep an accepted `at` as it is, holds exactly when formatting its instant gives it back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS, eventTimestampMs, isCanonicalIso, parseTimestampMs, toIsoMs } from '@/lib/contract/timestamp';

// ------------------------------------------------------------------ the reference (before 5 Dec 2026)

const RFC3339_FRACTIONAL = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})\.(\d{1,9})(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function referenceParse(value: string): number | null {
  const m = RFC3339_FRACTIONAL.exec(value);
  if (!m) return null;
  const year = +m[1],
    month = +m[2],
    day = +m[3],
    hour = +m[4],
    minute = +m[5],
    second = +m[6];
  if (month < 1 || month > 12) return null;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day < 1 || day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1])) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number(m[7].padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const utc = Date.UTC(year < 100 ? year + 400 : year, month - 1, day, hour, minute, second, millis);
  return (year < 100 ? utc - 12_622_780_800_000 : utc) - offsetMinutes * 60_000;
}

const referenceEventMs = (value: string): number | null => {
  const ms = referenceParse(value);
  return ms !== null && ms >= MIN_TIMESTAMP_MS && ms <= MAX_TIMESTAMP_MS ? ms : null;
};

function sameAsReference(value: string): void {
  assert.equal(parseTimestampMs(value), referenceParse(value), `parseTimestampMs(${JSON.stringify(value)})`);
  const ms = eventTimestampMs(value);
  assert.equal(ms, referenceEventMs(value), `eventTimestampMs(${JSON.stringify(value)})`);
  // Ingest keeps an accepted `at` as it is exactly when formatting its instant gives it back.
  if (ms !== null) assert.equal(isCanonicalIso(value), toIsoMs(ms) === value, `isCanonicalIso(${JSON.stringify(value)})`);
}

// ----------------------------------------------------------------------------------- the table

/** [input, accepted as an event's `at`]: each one also compared with the reference. */
const TABLE: [string, boolean][] = [
  ['2026-11-29T10:00:00.123Z', true],
  ['2026-11-29t10:00:00.123z', true],
  ['2026-11-29T10:00:00.1Z', true],
  ['2026-11-29T10:00:00.12Z', true],
  ['2026-11-29T10:00:00.123456789Z', true],
  ['2026-11-29T10:00:00.1234567890Z', false],
  ['2026-11-29T10:00:00Z', false],
  ['2026-11-29T10:00:00.Z', false],
  ['2026-11-29T10:00:00,123Z', false],
  ['2026-11-29 10:00:00.123Z', false],
  ['2026-11-29T10:00:00.123', false],
  ['2026-11-29T10:00:00.123Z ', false],
  [' 2026-11-29T10:00:00.123Z', false],
  ['2026-11-29T10:00:00.123Z\n', false],
  ['2026-11-29T10:00:00.123ZZ', false],
  ['+2026-11-29T10:00:00.123Z', false],
  ['026-11-29T10:00:00.123Z', false],
  ['20261-11-29T10:00:00.123Z', false],
  ['2026-1-29T10:00:00.123Z', false],
  ['2026-11-29T1:00:00.123Z', false],
  ['2026-11-29T10:00:00.123+02:00', true],
  ['2026-11-29T10:00:00.123-02:30', true],
  ['2026-11-29T10:00:00.123+23:59', true],
  ['2026-11-29T10:00:00.123+24:00', false],
  ['2026-11-29T10:00:00.123+00:60', false],
  ['2026-11-29T10:00:00.123-00:00', true],
  ['2026-11-29T10:00:00.123+0200', false],
  ['2026-11-29T10:00:00.123+02', false],
  ['2026-11-29T10:00:00.123+02:0', false],
  ['2026-11-29T10:00:00.123+02:000', false],
  ['2026-11-29T10:00:00.123 02:00', false],
  ['2026-11-29T10:00:00.123Z+02:00', false],
  ['2026-00-10T10:00:00.123Z', false],
  ['2026-13-10T10:00:00.123Z', false],
  ['2026-11-00T10:00:00.123Z', false],
  ['2026-11-31T10:00:00.123Z', false],
  ['2026-12-31T10:00:00.123Z', true],
  ['2024-02-29T00:00:00.000Z', true],
  ['2023-02-29T00:00:00.000Z', false],
  ['2000-02-29T00:00:00.000Z', true],
  ['2100-02-29T00:00:00.000Z', false],
  ['2026-11-29T24:00:00.000Z', false],
  ['2026-11-29T23:60:00.000Z', false],
  ['2026-11-29T23:59:60.000Z', false],
  ['2026-11-29T23:59:59.999Z', true],
  ['1970-01-01T00:00:00.000Z', true],
  ['1969-12-31T23:59:59.999Z', false],
  ['1970-01-01T00:00:00.000+00:01', false],
  ['1970-01-01T00:00:00.000-00:01', true],
  ['0000-01-01T00:00:00.000Z', false],
  ['0099-12-31T23:59:59.999Z', false],
  ['9999-12-31T23:59:59.999Z', true],
  ['9999-12-31T23:59:59.999+23:59', true],
  ['9999-12-31T23:59:59.999-00:01', false],
  ['２０２６-11-29T10:00:00.123Z', false],
  ['2026-11-29T10:00:00.١٢٣Z', false],
  ['2026-11-29T10:00:00.12٣Z', false],
  ['2026/11/29T10:00:00.123Z', false],
  ['2026-11-29T10-00-00.123Z', false],
  ['2026-11-29T10:00:00:123Z', false],
  ['2026-11-29X10:00:00.123Z', false],
  ['2026-11-29T10:00:00.123X', false],
  ['', false],
  ['Z', false],
  ['2026-11-29', false],
  ['2026-11-29T10:00:00.123Z'.repeat(2), false],
  ['2026-11-29T10:00:00.-12Z', false],
  ['2026-11-29T10:00:00.+12Z', false],
  ['2026-11-29T10:00:00. 1Z', false],
  ['2026-11-29T10:00:00.1e3Z', false],
  ['2026-11-29T10:0a:00.123Z', false],
  ['2026-11-29T10:00:00.123-', false],
  ['2026-11-29T10:00:00.123+', false],
];

describe('contract timestamps: the hand parser against the regex it replaced', () => {
  test('a table of tricky inputs: the same accepted set and values', () => {
    for (const [input, accepted] of TABLE) {
      sameAsReference(input);
      assert.equal(eventTimestampMs(input) !== null, accepted, `${JSON.stringify(input)} accepted?`);
    }
  });

  test('every instant the contract holds, in canonical form and with an offset, reads back to itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_TIMESTAMP_MS, max: MAX_TIMESTAMP_MS }), fc.integer({ min: -1439, max: 1439 }), (ms, offset) => {
        const iso = new Date(ms).toISOString();
        assert.equal(eventTimestampMs(iso), ms);
        assert.equal(isCanonicalIso(iso), true);
        // The same instant written with an offset (its wall clock moved by it), and lower case.
        const wall = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
        const abs = Math.abs(offset);
        const zone = `${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
        if (!wall.startsWith('+') && !wall.startsWith('-')) sameAsReference(`${wall}${zone}`.replace('T', 't'));
      }),
      { numRuns: 2000 },
    );
  });

  test('generated near-misses: every field in and out of range, separators and lengths wrong', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const field = (max: number, width: number) =>
      fc.oneof(
        fc.integer({ min: 0, max }).map((n) => pad(n, width)),
        fc.integer({ min: 0, max: 10 ** (width + 1) - 1 }).map(String),
        fc.constantFrom('', 'x', '٣', '３', ' 1', '-1', '+1'),
      );
    const sep = (usual: string) =>
      fc.oneof({ weight: 6, arbitrary: fc.constant(usual) }, fc.constantFrom('', ' ', '-', ':', '.', 'T', 't', 'Z', '/'));
    const fraction = fc.oneof(
      fc.stringMatching(/^\d{1,9}$/),
      fc.stringMatching(/^\d{10,12}$/),
      fc.constantFrom('', '1 ', '1a', '١', '1.5'),
    );
    const zone = fc.oneof(
      fc.constantFrom('Z', 'z', '', 'ZZ', 'Z ', 'UTC', '+', '-', '+00', '+0000', '+00:000', '\n'),
      fc.tuple(fc.constantFrom('+', '-'), field(25, 2), sep(':'), field(61, 2)).map((p) => p.join('')),
    );
    const candidate = fc
      .tuple(
        field(10000, 4),
        sep('-'),
        field(13, 2),
        sep('-'),
        field(32, 2),
        sep('T'),
        field(25, 2),
        sep(':'),
        field(61, 2),
        sep(':'),
        field(61, 2),
        sep('.'),
        fraction,
        zone,
      )
      .map((p) => p.join(''));
    // A valid timestamp with one character inserted, deleted or replaced anywhere.
    const mutated = fc
      .tuple(
        fc.integer({ min: MIN_TIMESTAMP_MS, max: MAX_TIMESTAMP_MS }),
        fc.nat(40),
        fc.constantFrom('insert', 'delete', 'replace'),
        fc.constantFrom('0', '9', '-', ':', '.', 'T', 'Z', '+', ' ', 'a', '\u0000', '٠'),
      )
      .map(([ms, at, how, ch]) => {
        const s = new Date(ms).toISOString();
        const i = at % (s.length + 1);
        return how === 'insert'
          ? s.slice(0, i) + ch + s.slice(i)
          : how === 'delete'
            ? s.slice(0, i) + s.slice(i + 1)
            : s.slice(0, i) + ch + s.slice(i + 1);
      });
    fc.assert(fc.property(fc.oneof(candidate, mutated, fc.string({ maxLength: 40 })), sameAsReference), { numRuns: 20_000 });
  });
});
