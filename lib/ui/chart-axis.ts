/**
 * The overview's shared chart axes, computed once per page and handed to every time-series panel,
 * so all of them draw the same buckets under the same tick labels at the same x (issue 13). Pure
 * (tests/unit/chart-axis.test.ts); the charts only draw what these return.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, WEEK_MS } from '@/lib/time/calendar';
import { bucketStarts } from '@/lib/time/buckets';

/** Tick spacings a time axis may use, finest first (each label lands on a round time). */
const TICK_STEPS = [1, 2, 5, 10, 15, 30]
  .map((m) => m * MINUTE_MS)
  .concat(
    [1, 2, 3, 6, 12].map((h) => h * HOUR_MS),
    [DAY_MS, 2 * DAY_MS, WEEK_MS],
  );

export interface TimeAxis {
  /** Bucket starts covering [from, to): every chart gets one row per start, in this order. */
  starts: number[];
  /** [first bucket start, last bucket end): the selected range aligned to the bucket. */
  domain: [number, number];
  /** The bucket starts that carry a label. */
  ticks: number[];
  /** Time between two labels. */
  stepMs: number;
}

/** How many labels fit in a plot `plotWidthPx` wide when a label (with its gap) takes `labelPx`. */
export function tickBudget(plotWidthPx: number, labelPx: number): number {
  if (!Number.isFinite(plotWidthPx) || plotWidthPx <= 0) return 6;
  return Math.max(2, Math.floor(plotWidthPx / labelPx));
}

/** Width a tick label needs, with its gap: `HH:MM`, or `MM-DD HH:MM` past two days (fmtTick). */
export const tickLabelPx = (spanMs: number) => (spanMs > 2 * DAY_MS ? 100 : 56);

/**
 * The axis of [fromMs, toMs) in `bucketMs` buckets with at most `maxTicks` labels: the labels sit
 * on bucket starts that are multiples of the smallest round step (itself a multiple of the bucket)
 * that keeps them within the budget; past the list, every n-th bucket.
 */
export function timeAxis(fromMs: number, toMs: number, bucketMs: number, maxTicks: number): TimeAxis {
  const starts = bucketStarts(fromMs, toMs, bucketMs);
  const first = starts[0] ?? Math.floor(fromMs / bucketMs) * bucketMs;
  const domain: [number, number] = [first, starts.length ? starts[starts.length - 1] + bucketMs : first + bucketMs];
  const budget = Math.max(1, Math.floor(maxTicks));
  const onStep = (step: number) => starts.filter((t) => t % step === 0);
  for (const step of TICK_STEPS) {
    if (step < bucketMs || step % bucketMs !== 0) continue;
    const ticks = onStep(step);
    if (ticks.length <= budget && ticks.length > 0) return { starts, domain, ticks, stepMs: step };
  }
  const every = Math.max(1, Math.ceil(starts.length / budget));
  return { starts, domain, ticks: starts.filter((_, i) => i % every === 0), stepMs: every * bucketMs };
}

/** `rows` on the axis' buckets: one row per start, in order; a bucket with no row gets `{ t }` alone (drawn as nothing). */
export function alignRows<R extends { t: number }>(starts: readonly number[], rows: readonly R[]): (R | { t: number })[] {
  const byT = new Map(rows.map((r) => [r.t, r]));
  return starts.map((t) => byT.get(t) ?? { t });
}

export interface PercentAxis {
  domain: [number, number];
  ticks: number[];
  /** Decimals a tick label needs (0.5 % needs one, 5 % none). */
  digits: number;
}

/** Round steps of a rate axis (fractions: 0.01 is 1 %). */
const PCT_STEPS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1];

/**
 * A rate (0..1, or above 1) axis from 0 to just above the largest value, in at most `maxTicks`
 * intervals of a round step, so a 3 % rate is read on a 0–4 % scale, not squashed under 100 %.
 */
export function percentAxis(values: readonly (number | null | undefined)[], maxTicks = 4): PercentAxis {
  const max = Math.max(0, ...values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)));
  const top0 = max > 0 ? max : 0.01;
  let step = PCT_STEPS.find((s) => Math.ceil(top0 / s - 1e-9) <= maxTicks);
  if (step === undefined) step = Math.ceil(top0 / maxTicks);
  const n = Math.max(1, Math.ceil(top0 / step - 1e-9));
  const ticks = Array.from({ length: n + 1 }, (_, i) => +(i * step).toFixed(6));
  const digits = step < 0.01 ? 1 : 0;
  return { domain: [0, ticks[ticks.length - 1]], ticks, digits };
}
