// The contract's timestamp parser is a character scan (lib/contract/timestamp.ts); the grammar it
// implements is the regular expression in tests/support/timestamp-grammar.ts, the form it replaced. Both must agree on every
// string: the same instant for a timestamp, null for anything else.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseTimestampMs } from '@/lib/contract/timestamp';
import { parseByGrammar as byGrammar } from '../support/timestamp-grammar';

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
/** Near-timestamps: every part a run of digits of about the right length, separators mostly right. */
const nearTimestamp = fc
  .tuple(
    digits(3, 5),
    fc.constantFrom('-', '-', '-', '/'),
    digits(1, 3),
    digits(1, 3),
    fc.constantFrom('T', 't', ' ', 'T'),
    digits(1, 3),
    digits(2, 2),
    digits(2, 2),
    fc.constantFrom('.', '.', ','),
    digits(0, 11),
    fc.constantFrom('Z', 'z', '', 'X', '+', '-', '+'),
    digits(1, 3),
    fc.constantFrom(':', ':', ''),
    digits(1, 3),
  )
  .map(([y, s1, mo, d, t, h, mi, se, dot, f, zone, oh, colon, om]) => {
    const offset = zone === '+' || zone === '-' ? `${zone}${oh}${colon}${om}` : zone;
    return `${y}${s1}${mo}-${d}${t}${h}:${mi}:${se}${dot}${f}${offset}`;
  });
/** Well-formed timestamps of any instant the grammar allows, including impossible dates and offsets. */
const wellFormed = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 24 }),
    fc.integer({ min: 0, max: 60 }),
    fc.integer({ min: 0, max: 60 }),
    digits(1, 9),
    fc.oneof(
      fc.constantFrom('Z', 'z'),
      fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 })),
    ),
  )
  .map(([y, mo, d, h, mi, s, f, zone]) => {
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const z = typeof zone === 'string' ? zone : `${zone[0]}${p(zone[1])}:${p(zone[2])}`;
    return `${p(y, 4)}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}.${f}${z}`;
  });
/** A well-formed timestamp with one character replaced, inserted or removed. */
const mutated = fc
  .tuple(wellFormed, fc.nat(), fc.constantFrom('replace', 'insert', 'remove'), fc.constantFrom(...'0123456789-:.TtZz+ xé\u0000'))
  .map(([s, at, how, ch]) => {
    const i = at % s.length;
    if (how === 'remove') return s.slice(0, i) + s.slice(i + 1);
    return s.slice(0, i) + ch + s.slice(how === 'replace' ? i + 1 : i);
  });

describe('contract timestamps: the character scan is the grammar', () => {
  test('agrees with the regular expression on well-formed, near and mutated timestamps and on any string', () => {
    fc.assert(
      fc.property(fc.oneof(wellFormed, nearTimestamp, mutated, fc.string(), fc.string({ unit: 'binary' })), (s) => {
        assert.equal(parseTimestampMs(s), byGrammar(s), JSON.stringify(s));
      }),
      { numRuns: 20_000 },
    );
  });

  test('the cases at the edges', () => {
    const cases = [
      '2026-11-29T10:00:00.1Z',
      '2026-11-29T10:00:00.123456789Z',
      '2026-11-29T10:00:00.1234567890Z',
      '2026-11-29T10:00:00Z',
      '2026-11-29T10:00:00.Z',
      '2026-11-29t10:00:00.5z',
      '2026-11-29T10:00:00.123+23:59',
      '2026-11-29T10:00:00.123+24:00',
      '2026-11-29T10:00:00.123-00:60',
      '2026-11-29T10:00:00.123+0200',
      '2024-02-29T00:00:00.000Z',
      '2023-02-29T00:00:00.000Z',
      '2000-02-29T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '0099-12-31T23:59:59.999Z',
      '9999-12-31T23:59:59.999-23:59',
      '2026-11-29T10:00:00.123Z ',
      ' 2026-11-29T10:00:00.123Z',
      '２０２６-11-29T10:00:00.123Z',
    ];
    for (const s of cases) assert.equal(parseTimestampMs(s), byGrammar(s), s);
    assert.equal(parseTimestampMs('2026-11-29T12:00:00.123+02:00'), Date.parse('2026-11-29T10:00:00.123Z'));
  });
});
