/**
 * The geometry of a drawn chart, for the overview's server-drawn first frame
 * (components/charts/static-chart.tsx): value axes with the ticks Recharts would choose, bars,
 * line paths and dots, in a viewBox `width` × `height` (the plot area, y down). Pure
 * (tests/unit/chart-geometry.test.ts). With `width` 100 every x is a percentage of the plot's width,
 * so the SVG follows its container's width without JS; y is in pixels (the chart's height is fixed).
 */

/** What the geometry needs of a series (SeriesDef, components/charts/series-legend.tsx, fits). */
export interface GeometrySeries {
  key: string;
  kind?: 'bar' | 'line' | 'tip';
  stack?: string;
  right?: boolean;
}

/** One bucket: its start and a value per series key (null or absent: nothing drawn). */
interface GeometryRow {
  t: number;
  [key: string]: number | null | undefined;
}

interface ValueAxis {
  domain: [number, number];
  ticks: number[];
}

interface Bar {
  key: string;
  /** Index of the series in the input (its colour). */
  series: number;
  row: number;
  /** The bar's slot within its band (before the pixel gap and the maximum width are applied). */
  x: number;
  width: number;
  y: number;
  height: number;
}

interface LinePath {
  key: string;
  series: number;
  /** `M … L …`, a new `M` after each gap (a missing value is not bridged). */
  d: string;
  dots: { x: number; y: number }[];
}

export interface ChartGeometry {
  /** Width of one bucket's band. */
  band: number;
  /** Width of a bar's slot in its band (the band, or its share when stacks stand side by side). */
  barWidth: number;
  left: { axis: ValueAxis; ticks: { value: number; y: number }[] };
  right: { axis: ValueAxis; ticks: { value: number; y: number }[] } | null;
  bars: Bar[];
  lines: LinePath[];
  /** The x of a bucket start's band centre, or null when the rows hold no such bucket. */
  xOf: (t: number) => number | null;
}

/** A coordinate to a thousandth of a unit: finer than any screen shows, and short in the HTML. */
const coord = (v: number) => Math.round(v * 1000) / 1000;

/** Round away binary noise (0.1 + 0.2) so ticks print as the numbers they are. */
const clean = (v: number) => (v === 0 || !Number.isFinite(v) ? v : Number.parseFloat(v.toPrecision(12)));

function digitCount(v: number): number {
  return v === 0 ? 1 : Math.floor(Math.log10(Math.abs(v))) + 1;
}

/** `Math.ceil` that does not step past an integer the division only missed by rounding. */
function ceilExact(q: number): number {
  const r = Math.round(q);
  return Math.abs(q - r) < 1e-9 ? r : Math.ceil(q);
}

// Recharts' "auto" nice ticks (recharts/lib/util/scale/getNiceTickValues.js), in plain numbers:
// the interactive chart that replaces this frame draws the same ticks, so nothing moves.
function adaptiveStep(rough: number, allowDecimals: boolean, correction: number): number {
  if (!(rough > 0)) return 0;
  const digits = digitCount(rough);
  const magnitude = 10 ** digits;
  const scale = digits !== 1 ? 0.05 : 0.1;
  const step = clean((ceilExact(rough / magnitude / scale) + correction) * scale * magnitude);
  return allowDecimals ? step : Math.ceil(step);
}

function stepAround(
  min: number,
  max: number,
  count: number,
  allowDecimals: boolean,
  correction = 0,
): { step: number; lo: number; hi: number } {
  const step = adaptiveStep((max - min) / (count - 1), allowDecimals, correction);
  if (!(step > 0) || !Number.isFinite(step)) return { step: 0, lo: 0, hi: 0 };
  // 0 is a tick whenever it is inside the interval.
  let middle = 0;
  if (!(min <= 0 && max >= 0)) {
    middle = (min + max) / 2;
    middle = clean(middle - (middle % step));
  }
  let below = ceilExact((middle - min) / step);
  let up = ceilExact((max - middle) / step);
  const n = below + up + 1;
  if (n > count) return stepAround(min, max, count, allowDecimals, correction + 1);
  if (n < count) {
    if (max > 0) up += count - n;
    else below += count - n;
  }
  return { step, lo: clean(middle - below * step), hi: clean(middle + up * step) };
}

function singleValueTicks(value: number, count: number, allowDecimals: boolean): number[] {
  let step = 1;
  let middle = value;
  if (!Number.isInteger(value) && allowDecimals) {
    if (Math.abs(value) < 1) {
      step = 10 ** (digitCount(value) - 1);
      middle = Math.floor(value / step) * step;
    } else middle = Math.floor(value);
  } else if (value === 0) middle = Math.floor((count - 1) / 2);
  else if (!allowDecimals) middle = Math.floor(value);
  const mid = Math.floor((count - 1) / 2);
  return Array.from({ length: count }, (_, i) => clean(middle + (i - mid) * step));
}

/** The ticks Recharts puts on a number axis over [min, max] (its default of 5 ticks; they may reach past the data). */
export function niceTicks(min: number, max: number, count = 5, allowDecimals = true): number[] {
  const lo = Math.min(min, max);
  const hi = Math.max(min, max);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (lo === hi) return singleValueTicks(lo, count, allowDecimals);
  const { step, lo: first, hi: last } = stepAround(lo, hi, Math.max(count, 2), allowDecimals);
  if (step === 0) return [lo, hi];
  const out: number[] = [];
  for (let v = first, i = 0; v < last + step * 0.1 && i < 1000; i++, v = clean(first + i * step)) out.push(v);
  return out;
}

/** A value axis from 0 (or below, for negative data) to the data's largest value, widened to its ticks. */
export function valueAxis(values: readonly number[], allowDecimals: boolean): ValueAxis {
  const finite = values.filter(Number.isFinite);
  const lo = Math.min(0, ...finite);
  const hi = Math.max(0, ...finite);
  const ticks = niceTicks(lo, hi, 5, allowDecimals);
  if (ticks.length === 0) return { domain: [0, 1], ticks: [0, 1] };
  return { domain: [Math.min(lo, ticks[0]), Math.max(hi, ticks[ticks.length - 1])], ticks };
}

const valueOf = (row: GeometryRow, key: string): number | null => {
  const v = row[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/** Stacks per row: the running top of positive values and bottom of negative ones, per stack id. */
function stackExtents(rows: readonly GeometryRow[], bars: readonly { s: GeometrySeries }[]): number[] {
  const out: number[] = [];
  for (const row of rows) {
    const pos = new Map<string, number>();
    const neg = new Map<string, number>();
    for (const { s } of bars) {
      const v = valueOf(row, s.key);
      if (v === null) continue;
      const id = s.stack ?? s.key;
      const m = v >= 0 ? pos : neg;
      m.set(id, (m.get(id) ?? 0) + v);
      out.push(m.get(id)!);
    }
  }
  return out;
}

export interface GeometryInput {
  rows: readonly GeometryRow[];
  series: readonly GeometrySeries[];
  width: number;
  height: number;
  /** Left-axis ticks may be fractions (default: whole numbers, as the overview's counts). */
  leftDecimals?: boolean;
  /** The right axis' scale when it is fixed (a rate: lib/ui/chart-axis.ts percentAxis); values past it are clipped. */
  rightScale?: ValueAxis;
}

/** Everything a static chart draws, in the viewBox [0, width] × [0, height]: one band per row, in order. */
export function chartGeometry({ rows, series, width, height, leftDecimals = false, rightScale }: GeometryInput): ChartGeometry {
  const n = rows.length;
  const band = n > 0 ? width / n : width;
  const drawn = series.map((s, i) => ({ s, i })).filter(({ s }) => s.kind !== 'tip');
  const barsOf = (right: boolean) => drawn.filter(({ s }) => (s.kind ?? 'bar') === 'bar' && !!s.right === right);
  const linesOf = (right: boolean) => drawn.filter(({ s }) => s.kind === 'line' && !!s.right === right);
  const axisValues = (right: boolean) => [
    ...stackExtents(rows, barsOf(right)),
    ...linesOf(right).flatMap(({ s }) => rows.map((r) => valueOf(r, s.key)).filter((v): v is number => v !== null)),
  ];
  const leftAxis = valueAxis(axisValues(false), leftDecimals);
  const hasRight = drawn.some(({ s }) => s.right);
  const rightAxis = hasRight ? (rightScale ?? valueAxis([1, ...axisValues(true)], true)) : null;

  const yOn = (axis: ValueAxis) => {
    const [d0, d1] = axis.domain;
    const span = d1 - d0 || 1;
    // Clipped to the plot, as Recharts clips a fixed scale's overflow.
    return (v: number) => Math.min(height, Math.max(0, height - ((v - d0) / span) * height));
  };
  const yLeft = yOn(leftAxis);
  const yRight = rightAxis ? yOn(rightAxis) : yLeft;
  const ticksOf = (axis: ValueAxis, y: (v: number) => number) => axis.ticks.map((value) => ({ value, y: y(value) }));

  // Bars: one slot per stack in each band, side by side (the overview stacks each chart's bars in one).
  const stackIds = [...new Set(drawn.filter(({ s }) => (s.kind ?? 'bar') === 'bar').map(({ s }) => s.stack ?? s.key))];
  const slot = stackIds.length > 0 ? band / stackIds.length : band;
  const bars: Bar[] = [];
  rows.forEach((row, r) => {
    const pos = new Map<string, number>();
    const neg = new Map<string, number>();
    for (const { s, i } of drawn) {
      if ((s.kind ?? 'bar') !== 'bar') continue;
      const v = valueOf(row, s.key);
      if (v === null || v === 0) continue;
      const id = s.stack ?? s.key;
      const m = v > 0 ? pos : neg;
      const base = m.get(id) ?? 0;
      m.set(id, base + v);
      const y = s.right ? yRight : yLeft;
      const a = y(base);
      const b = y(base + v);
      bars.push({
        key: s.key,
        series: i,
        row: r,
        x: r * band + stackIds.indexOf(id) * slot,
        width: slot,
        y: Math.min(a, b),
        height: Math.abs(a - b),
      });
    }
  });

  const lines: LinePath[] = drawn
    .filter(({ s }) => s.kind === 'line')
    .map(({ s, i }) => {
      const y = s.right ? yRight : yLeft;
      const dots: { x: number; y: number }[] = [];
      let d = '';
      let pen = false;
      rows.forEach((row, r) => {
        const v = valueOf(row, s.key);
        if (v === null) {
          pen = false;
          return;
        }
        const p = { x: coord(r * band + band / 2), y: coord(y(v)) };
        dots.push(p);
        d += `${d ? ' ' : ''}${pen ? 'L' : 'M'}${p.x} ${p.y}`;
        pen = true;
      });
      return { key: s.key, series: i, d, dots };
    });

  const index = new Map(rows.map((row, r) => [row.t, r]));
  const xOf = (t: number) => {
    const r = index.get(t);
    return r === undefined ? null : clean(r * band + band / 2);
  };
  return {
    band,
    barWidth: slot,
    left: { axis: leftAxis, ticks: ticksOf(leftAxis, yLeft) },
    right: rightAxis ? { axis: rightAxis, ticks: ticksOf(rightAxis, yRight) } : null,
    bars,
    lines,
    xOf,
  };
}
