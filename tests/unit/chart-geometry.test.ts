import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import type { getNiceTickValues as NiceTickValues } from 'recharts/types/util/scale/getNiceTickValues';
import { chartGeometry, niceTicks, valueAxis, type GeometrySeries } from '@/lib/ui/chart-geometry';

// The interactive chart's own tick function (not among Recharts' typed entry points): the
// server-drawn frame must put the same ticks.
const { getNiceTickValues } = createRequire(__filename)('recharts/lib/util/scale/getNiceTickValues') as {
  getNiceTickValues: typeof NiceTickValues;
};

const H = 174;
const BARS: GeometrySeries[] = [
  { key: 'a', stack: 's' },
  { key: 'b', stack: 's' },
];
const LINE: GeometrySeries[] = [{ key: 'p', kind: 'line' }];

const finite = (g: ReturnType<typeof chartGeometry>) =>
  [
    ...g.bars.flatMap((b) => [b.x, b.y, b.width, b.height]),
    ...g.lines.flatMap((l) => l.dots.flatMap((d) => [d.x, d.y])),
    ...g.left.ticks.map((t) => t.y),
  ].every(Number.isFinite);

test('niceTicks: the ticks Recharts chooses, whole numbers or not', () => {
  for (const [lo, hi] of [
    [0, 1],
    [0, 3],
    [0, 17],
    [0, 99],
    [0, 101],
    [0, 0.034],
    [0, 1234567],
    [-5, 12],
    [-40, -3],
    [0, 0],
    [7, 7],
  ])
    for (const decimals of [true, false])
      assert.deepEqual(niceTicks(lo, hi, 5, decimals), getNiceTickValues([lo, hi], 5, decimals), `[${lo}, ${hi}] ${decimals}`);
});

test('niceTicks: the same as Recharts over random ranges', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -100_000, max: 100_000 }),
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.boolean(),
      (lo, extent, decimals) => {
        assert.deepEqual(niceTicks(lo, lo + extent, 5, decimals), getNiceTickValues([lo, lo + extent], 5, decimals));
      },
    ),
    { numRuns: 500 },
  );
});

test('valueAxis: from 0 to the data, widened to its ticks; all zero still has a scale', () => {
  assert.deepEqual(valueAxis([3, 17, 9], false), { domain: [0, 20], ticks: [0, 5, 10, 15, 20] });
  assert.deepEqual(valueAxis([0, 0], false), { domain: [0, 4], ticks: [0, 1, 2, 3, 4] });
  assert.deepEqual(valueAxis([], false), { domain: [0, 4], ticks: [0, 1, 2, 3, 4] });
  const neg = valueAxis([-7, 12], false);
  assert.ok(neg.domain[0] <= -7 && neg.domain[1] >= 12 && neg.ticks.includes(0), JSON.stringify(neg));
});

test('chartGeometry: empty series draw nothing and keep a scale', () => {
  const g = chartGeometry({ rows: [], series: [...BARS, ...LINE], width: 100, height: H });
  assert.deepEqual(g.bars, []);
  assert.deepEqual(
    g.lines.map((l) => l.d),
    [''],
  );
  assert.deepEqual(
    g.left.ticks.map((t) => t.value),
    [0, 1, 2, 3, 4],
  );
  assert.equal(g.left.ticks[0].y, H);
  assert.equal(g.left.ticks[4].y, 0);
  assert.equal(g.xOf(0), null);
  assert.equal(g.right, null);
});

test('chartGeometry: one bucket fills the width; a single point is a dot, not a line', () => {
  const g = chartGeometry({ rows: [{ t: 60_000, a: 2, p: 4 }], series: [...BARS, ...LINE], width: 100, height: H });
  assert.equal(g.band, 100);
  assert.deepEqual(
    g.bars.map((b) => [b.x, b.width]),
    [[0, 100]],
  );
  assert.equal(g.lines[0].d, `M50 0`);
  assert.deepEqual(g.lines[0].dots, [{ x: 50, y: 0 }]);
  assert.equal(g.xOf(60_000), 50);
});

test('chartGeometry: all zero draws no bars and lines on the baseline', () => {
  const rows = [0, 1, 2].map((i) => ({ t: i, a: 0, b: 0, p: 0 }));
  const g = chartGeometry({ rows, series: [...BARS, ...LINE], width: 100, height: H });
  assert.deepEqual(g.bars, []);
  assert.ok(g.lines[0].dots.every((d) => d.y === H));
  assert.equal(g.lines[0].d.split('M').length - 1, 1);
});

test('chartGeometry: stacked bars sit on each other, in band slots', () => {
  const rows = [
    { t: 0, a: 5, b: 5 },
    { t: 1, a: 10, b: 0 },
  ];
  const g = chartGeometry({ rows, series: BARS, width: 100, height: 100 });
  assert.deepEqual(g.left.axis.domain, [0, 12]);
  const [a0, b0, a1] = g.bars;
  assert.equal(g.bars.length, 3, 'a zero value draws no bar');
  assert.equal(a0.y + a0.height, 100);
  assert.ok(Math.abs(b0.y + b0.height - a0.y) < 1e-9, 'b starts where a ends');
  assert.deepEqual([a0.x, a0.width, a1.x], [0, 50, 50]);
});

test('chartGeometry: gaps (null, missing, not finite) break the line', () => {
  const rows = [
    { t: 0, p: 1 },
    { t: 1, p: 2 },
    { t: 2, p: null },
    { t: 3 },
    { t: 4, p: Number.NaN },
    { t: 5, p: 3 },
    { t: 6, p: Number.POSITIVE_INFINITY },
  ];
  const g = chartGeometry({ rows, series: LINE, width: 70, height: H });
  const { d, dots } = g.lines[0];
  assert.equal(dots.length, 3);
  assert.match(d, /^M5 \S+ L15 \S+ M55 \S+$/);
});

test('chartGeometry: negative values reach below the zero line', () => {
  const rows = [
    { t: 0, a: -6 },
    { t: 1, a: 9 },
  ];
  const g = chartGeometry({ rows, series: BARS, width: 100, height: 100 });
  const zero = g.left.ticks.find((t) => t.value === 0)!;
  const [neg, pos] = g.bars;
  assert.equal(neg.y, zero.y, 'the negative bar hangs from 0');
  assert.ok(neg.height > 0 && neg.y + neg.height <= 100);
  assert.equal(pos.y + pos.height, zero.y, 'the positive bar stands on 0');
  assert.ok(g.left.axis.domain[0] < 0);
});

test('chartGeometry: huge values stay inside the plot with finite coordinates', () => {
  const rows = [
    { t: 0, a: 1e15, p: 9e14 },
    { t: 1, a: 3, p: 1 },
  ];
  const g = chartGeometry({ rows, series: [...BARS, ...LINE], width: 100, height: H });
  assert.ok(finite(g));
  assert.ok(g.bars.every((b) => b.y >= 0 && b.y + b.height <= H + 1e-9));
  assert.ok(g.left.axis.domain[1] >= 1e15);
});

test('chartGeometry: a fixed right scale clips what lies past it; the left axis ignores right series', () => {
  const series: GeometrySeries[] = [
    { key: 'a', stack: 'r' },
    { key: 'rate', kind: 'line', right: true },
  ];
  const rows = [
    { t: 0, a: 3, rate: 0.5 },
    { t: 1, a: 1, rate: 0.01 },
  ];
  const g = chartGeometry({ rows, series, width: 100, height: 100, rightScale: { domain: [0, 0.04], ticks: [0, 0.02, 0.04] } });
  assert.deepEqual(g.left.axis.domain, [0, 4]);
  assert.deepEqual(
    g.right!.ticks.map((t) => [t.value, t.y]),
    [
      [0, 100],
      [0.02, 50],
      [0.04, 0],
    ],
  );
  assert.equal(g.lines[0].dots[0].y, 0, 'clipped at the top');
  assert.equal(g.lines[0].dots[1].y, 75);
});

test('chartGeometry: tip-only series are not drawn and do not scale the axis', () => {
  const g = chartGeometry({ rows: [{ t: 0, p: 2, n: 500 }], series: [...LINE, { key: 'n', kind: 'tip' }], width: 100, height: H });
  assert.equal(g.lines.length, 1);
  assert.equal(g.left.axis.domain[1], 4);
});
