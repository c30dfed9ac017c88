// lib/time: the instant grammar, range resolution, buckets, presets and navigation, with properties.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addUnits, endOfUnit, startOfUnit, TIME_UNITS, type TimeUnit } from '@/lib/time/calendar';
import { formatInstant, isRelative, MAX_INSTANT_MS, parseInstant, readInstant, roundInstant } from '@/lib/time/instant';
import { DEFAULT_RANGE, MAX_RANGE_MS, resolveTimeRange } from '@/lib/time/range';
import { BUCKETS, bucketStarts, chooseBucket, MAX_POINTS, parseBucket, resolveBucket, TARGET_POINTS } from '@/lib/time/buckets';
import { presetFor, RANGE_PRESETS } from '@/lib/time/presets';
import { freezeRange, shiftRange, zoomOutRange } from '@/lib/time/navigate';
import { describeRange } from '@/lib/time/describe';
import { parseUserTime } from '@/lib/time/user-input';
import { BucketError, TimeRangeError } from '@/lib/time/errors';
import { parseTimeRange, resolveBucketMs } from '@/lib/queries/time-range';

const NOW = Date.parse('2026-11-29T12:34:56.789Z'); // a Sunday
const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;
const at = (iso: string) => Date.parse(iso);

// Instants from 1970 to 9999; ranges of now around the present and far from it.
const instant = fc.integer({ min: 0, max: MAX_INSTANT_MS });
const present = fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z') });
const unit = fc.constantFrom<TimeUnit>(...TIME_UNITS);

describe('instant grammar', () => {
  test('relative forms with every Grafana unit', () => {
    assert.equal(parseInstant('now', NOW), NOW);
    assert.equal(parseInstant('now-15m', NOW), NOW - 15 * MIN);
    assert.equal(parseInstant('now-30s', NOW), NOW - 30_000);
    assert.equal(parseInstant('now+1h', NOW), NOW + H);
    assert.equal(parseInstant('now-7d', NOW), NOW - 7 * D);
    assert.equal(parseInstant('now-2w', NOW), NOW - 14 * D);
    assert.equal(parseInstant('now-1M', NOW), at('2026-10-29T12:34:56.789Z'));
    assert.equal(parseInstant('now-1y', NOW), at('2025-11-29T12:34:56.789Z'));
    // Calendar months clamp the day, as Grafana (moment) does.
    assert.equal(parseInstant('now+1M', at('2027-01-31T10:00:00Z')), at('2027-02-28T10:00:00Z'));
    assert.equal(parseInstant('now-1y', at('2028-02-29T10:00:00Z')), at('2027-02-28T10:00:00Z'));
    for (const bad of ['now-', 'now-5', 'now-5ms', 'now - 5m', 'yesterday', '', 'now-1.5h', 'now/', 'now/x', 'now-1d/', 'NOW', 'now-1D']) {
      assert.equal(parseInstant(bad, NOW), null, bad);
    }
  });

  test('rounding: from rounds down, to up to the last millisecond of the unit (UTC, weeks from Monday)', () => {
    assert.equal(parseInstant('now/d', NOW, 'from'), at('2026-11-29T00:00:00Z'));
    assert.equal(parseInstant('now/d', NOW, 'to'), at('2026-11-29T23:59:59.999Z'));
    assert.equal(parseInstant('now-1d/d', NOW, 'from'), at('2026-11-28T00:00:00Z'));
    assert.equal(parseInstant('now-1d/d', NOW, 'to'), at('2026-11-28T23:59:59.999Z'));
    assert.equal(parseInstant('now/w', NOW, 'from'), at('2026-11-23T00:00:00Z'));
    assert.equal(parseInstant('now/w', NOW, 'to'), at('2026-11-29T23:59:59.999Z'));
    assert.equal(parseInstant('now/M', NOW, 'from'), at('2026-11-01T00:00:00Z'));
    assert.equal(parseInstant('now/y', NOW, 'to'), at('2026-12-31T23:59:59.999Z'));
    assert.equal(parseInstant('now/h', NOW), at('2026-11-29T12:00:00Z'));
    assert.equal(parseInstant('now-1h/m', NOW), at('2026-11-29T11:34:00Z'));
  });

  test('ISO 8601 with an offset, with or without fraction; epoch ms', () => {
    assert.equal(parseInstant('2026-11-29T10:00:00Z', NOW), at('2026-11-29T10:00:00Z'));
    assert.equal(parseInstant('2026-11-29T10:00:00.250Z', NOW), at('2026-11-29T10:00:00.250Z'));
    assert.equal(parseInstant('2026-11-29T11:00:00+01:00', NOW), at('2026-11-29T10:00:00Z'));
    assert.equal(parseInstant('1796032800000', NOW), 1796032800000);
    for (const bad of ['2026-11-29', '2026-13-01T00:00:00Z', '2026-11-29T25:00:00Z', '2026-11-29 10:00:00Z', '2026-11-29T10:00:00']) {
      assert.equal(parseInstant(bad, NOW), null, bad);
    }
  });

  test('instants outside 1970 … 9999 (or a Date) are bounds errors, not syntax errors', () => {
    for (const s of [
      '9999999999990000',
      '99999999999999999999999',
      'now+999999999w',
      'now-999999999y',
      'now+999999999M/d',
      '1969-12-31T23:59:59Z',
      '0000-01-01T00:00:00Z',
      'now-57y',
    ]) {
      assert.deepEqual(readInstant(s, NOW), { ok: false, problem: 'bounds' }, s);
    }
    assert.deepEqual(readInstant('nope', NOW), { ok: false, problem: 'syntax' });
    assert.equal(parseInstant('9999-12-31T23:59:59.999Z', NOW), MAX_INSTANT_MS);
    assert.equal(parseInstant('1970-01-01T00:00:00Z', NOW), 0);
  });

  test('property: the canonical form parses back to the same instant', () => {
    fc.assert(fc.property(instant, present, (ms, now) => parseInstant(formatInstant(ms), now) === ms));
  });

  test('property: relative offsets are exact for fixed units and invert each other', () => {
    fc.assert(
      fc.property(present, fc.integer({ min: 0, max: 1000 }), fc.constantFrom('s', 'm', 'h', 'd', 'w'), (now, n, u) => {
        const minus = parseInstant(`now-${n}${u}`, now)!;
        const plus = parseInstant(`now+${n}${u}`, now)!;
        return now - minus === plus - now && isRelative(`now-${n}${u}`);
      }),
    );
  });

  test('property: rounding is idempotent and brackets the instant', () => {
    fc.assert(
      fc.property(instant, unit, (ms, u) => {
        const down = roundInstant(ms, u, 'from');
        const up = roundInstant(ms, u, 'to');
        if (up > MAX_INSTANT_MS) return true; // the last unit of year 9999 ends past the bound only for y/M/w
        return (
          down <= ms &&
          ms <= up &&
          roundInstant(down, u, 'from') === down &&
          roundInstant(up, u, 'to') === up &&
          startOfUnit(up, u) === down &&
          endOfUnit(down, u) === up &&
          addUnits(down, 1, u) === up + 1
        );
      }),
    );
  });
});

describe('range resolution', () => {
  test('one default range for server and UI: the last 15 minutes', () => {
    assert.deepEqual(DEFAULT_RANGE, { from: 'now-15m', to: 'now' });
    const r = resolveTimeRange(undefined, '', NOW);
    assert.equal(r.fromInput, 'now-15m');
    assert.equal(r.fromMs, Math.floor((NOW - 15 * MIN) / MIN) * MIN);
    assert.equal(r.toMs, Math.ceil(NOW / MIN) * MIN);
  });

  test('yesterday is one whole UTC day, [from, to) after minute alignment', () => {
    const r = resolveTimeRange('now-1d/d', 'now-1d/d', NOW);
    assert.equal(r.fromMs, at('2026-11-28T00:00:00Z'));
    assert.equal(r.toMs, at('2026-11-29T00:00:00Z'));
  });

  test('typed errors name the parameter', () => {
    const param = (p: string) => (e: unknown) => e instanceof TimeRangeError && e.param === p && e.code === 'invalid_time_range';
    assert.throws(() => resolveTimeRange('x', 'now', NOW), param('from'));
    assert.throws(() => resolveTimeRange('now-1h', 'now+999999999w', NOW), param('to'));
    assert.throws(() => resolveTimeRange('now', 'now-1m', NOW), param('range'));
    assert.throws(() => resolveTimeRange('now-401d', 'now', NOW), param('range'));
    assert.doesNotThrow(() => resolveTimeRange('now-400d', 'now', NOW - (NOW % MIN)));
  });

  test('property: every preset resolves, from < to, within the maximum range, at any present', () => {
    fc.assert(
      fc.property(present, (now) =>
        RANGE_PRESETS.every((p) => {
          const r = resolveTimeRange(p.from, p.to, now);
          return r.fromMs < r.toMs && r.toMs - r.fromMs <= MAX_RANGE_MS;
        }),
      ),
    );
  });

  test('property: any resolved range is ordered, minute-aligned and covers its inputs', () => {
    fc.assert(
      fc.property(instant, instant, (a, b) => {
        const [f, t] = a < b ? [a, b] : [b, a];
        if (f === t || t - f > MAX_RANGE_MS - 2 * MIN) return true;
        const r = resolveTimeRange(String(f).padStart(13, '0'), formatInstant(t), NOW);
        return r.fromMs <= f && t <= r.toMs && r.fromMs % MIN === 0 && r.toMs % MIN === 0 && r.fromMs < r.toMs;
      }),
    );
  });
});

describe('buckets', () => {
  test('smallest listed bucket keeping the series to ≤ 200 points', () => {
    assert.equal(chooseBucket(15 * MIN).expr, '1m');
    assert.equal(chooseBucket(3 * H).expr, '1m');
    assert.equal(chooseBucket(6 * H).expr, '5m');
    assert.equal(chooseBucket(24 * H).expr, '15m');
    assert.equal(chooseBucket(7 * D).expr, '1h');
    assert.equal(chooseBucket(30 * D).expr, '6h');
    assert.equal(chooseBucket(400 * D).expr, '1w');
    assert.deepEqual(chooseBucket(1000 * 7 * D), { expr: `${(1000 * 7 * D) / 200 / MIN}m`, ms: (1000 * 7 * D) / 200 });
  });

  test('every listed bucket parses back to its size; explicit buckets are checked', () => {
    for (const b of BUCKETS) assert.equal(parseBucket(b.expr), b.ms, b.expr);
    for (const bad of ['5', '0m', '1.5h', '1y', 'm5', '1M', '']) assert.equal(parseBucket(bad), null, bad);
    assert.throws(
      () => resolveBucket('1m', 7 * D),
      (e: unknown) => e instanceof BucketError && e.code === 'invalid_bucket',
    );
    assert.deepEqual(bucketStarts(12 * MIN, 21 * MIN, 5 * MIN), [10 * MIN, 15 * MIN, 20 * MIN]);
  });

  test('property: the chooser gives ≤ TARGET_POINTS (≤ MAX_POINTS) for any range, and a parseable size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 * MAX_RANGE_MS }), (width) => {
        const b = chooseBucket(width);
        return (
          Math.ceil(width / b.ms) <= TARGET_POINTS &&
          TARGET_POINTS <= MAX_POINTS &&
          parseBucket(b.expr) === b.ms &&
          resolveBucket(b.expr, width) === b.ms
        );
      }),
    );
  });

  test('property: server and UI choose the same bucket for the same range', () => {
    const inputs = fc.oneof(
      fc.constantFrom(...RANGE_PRESETS.map((p) => [p.from, p.to] as const)),
      fc
        .tuple(fc.integer({ min: 1, max: 400 * 24 * 60 - 2 }), fc.constantFrom('m', 'h'))
        .map(([n, u]) => [`now-${u === 'h' ? Math.max(1, Math.floor(n / 60)) : n}${u}`, 'now'] as const),
    );
    fc.assert(
      fc.property(inputs, present, ([from, to], now) => {
        // Server: the stats edge with no bucket= (what the API falls back to).
        const server = parseTimeRange(from, to, now);
        const serverBucket = resolveBucketMs(null, server.toMs - server.fromMs);
        // UI: the bucket the overview asks for, sent back as bucket= (explicit path of the same edge).
        const ui = resolveTimeRange(from, to, now);
        const uiExpr = chooseBucket(ui.toMs - ui.fromMs).expr;
        return resolveBucketMs(uiExpr, server.toMs - server.fromMs) === serverBucket;
      }),
    );
  });
});

describe('presets, navigation, description, typed input', () => {
  test('presets: default first, shortcut keys 1–4, calendar presets', () => {
    assert.equal(presetFor(DEFAULT_RANGE.from, DEFAULT_RANGE.to)?.label, 'Last 15 minutes');
    assert.deepEqual(
      RANGE_PRESETS.filter((p) => p.key).map((p) => p.key),
      ['1', '2', '3', '4'],
    );
    assert.equal(presetFor('now-1d/d', 'now-1d/d')?.label, 'Yesterday');
    assert.equal(new Set(RANGE_PRESETS.map((p) => p.short)).size, RANGE_PRESETS.length);
  });

  test('freeze, shift, zoom give canonical absolute instants', () => {
    const frozen = freezeRange('now-1h', 'now', NOW);
    assert.deepEqual(frozen, { from: '2026-11-29T11:34:56.789Z', to: '2026-11-29T12:34:56.789Z' });
    assert.deepEqual(shiftRange('2026-11-29T10:00:00Z', '2026-11-29T11:00:00Z', -0.5, NOW), {
      from: '2026-11-29T09:30:00.000Z',
      to: '2026-11-29T10:30:00.000Z',
    });
    assert.deepEqual(zoomOutRange('2026-11-29T10:00:00Z', '2026-11-29T11:00:00Z', 2, NOW), {
      from: '2026-11-29T09:30:00.000Z',
      to: '2026-11-29T11:30:00.000Z',
    });
    // Zooming out never reaches past now, but never cuts the current end either.
    assert.equal(zoomOutRange('now-1h', 'now', 2, NOW).to, '2026-11-29T12:34:56.789Z');
    // Unusable input falls back to the default range instead of throwing in a click handler.
    assert.deepEqual(freezeRange('garbage', 'now', NOW), freezeRange(DEFAULT_RANGE.from, DEFAULT_RANGE.to, NOW));
  });

  test('property: shifting back and forth returns the same frozen window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2090-01-01T00:00:00Z') }),
        fc.integer({ min: 1, max: 10 * 86_400_000 }),
        (start, widthMs) => {
          const from = formatInstant(start);
          const to = formatInstant(start + widthMs * 2);
          const there = shiftRange(from, to, 0.5, NOW);
          const back = shiftRange(there.from, there.to, -0.5, NOW);
          return back.from === from && back.to === to;
        },
      ),
    );
  });

  test('describe', () => {
    const fmt = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
    assert.equal(describeRange('now-15m', 'now', fmt, NOW), 'Last 15 minutes');
    assert.equal(describeRange('now-3h', 'now', fmt, NOW), 'Since now-3h');
    assert.equal(describeRange('2026-11-29T10:00:00Z', '2026-11-29T11:00:00Z', fmt, NOW), '2026-11-29 10:00 → 11:00');
    assert.equal(describeRange('2026-11-28T10:00:00Z', '2026-11-29T11:00:00Z', fmt, NOW), '2026-11-28 10:00 → 2026-11-29 11:00');
    // A range that does not resolve is not labelled as the default it falls back to.
    for (const [from, to] of [
      ['banana', 'now'],
      ['now', 'banana'],
      ['now-5m', 'now-1h'],
      ['now+1h', 'now'],
    ])
      assert.equal(describeRange(from, to, fmt, NOW), 'Invalid time range', `${from} → ${to}`);
  });

  test('typed input: grammar forms, wall-clock times in the display zone', () => {
    assert.equal(parseUserTime('now-1d/d', 'utc', NOW), 'now-1d/d');
    assert.equal(parseUserTime('2026-11-29 10:00', 'utc', NOW), '2026-11-29T10:00:00.000Z');
    assert.equal(parseUserTime('2026-11-29T11:00:00+01:00', 'local', NOW), '2026-11-29T10:00:00.000Z');
    assert.equal(parseUserTime('1796032800000', 'utc', NOW), formatInstant(1796032800000));
    for (const bad of ['', 'soon', 'now+999999999w', '1969-12-31 23:00', '2026-13-01 10:00'])
      assert.equal(parseUserTime(bad, 'utc', NOW), null, bad);
  });
});
