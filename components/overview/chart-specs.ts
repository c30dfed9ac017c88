// The overview's per-bucket charts: which series each draws, how tall, where a click drills to, and the
// rows they read from one stats answer (per outcome, or per server with ?split=server).
import { msTick, type SeriesDef, type SeriesRow } from '@/components/charts/series-legend';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { fmtInt, fmtLatency, fmtPct } from '@/lib/ui/format';
import { OTHER_COLOR, SERVER_COLORS } from '@/lib/ui/palette';
import { splitByServer, type SplitMeasure } from '@/lib/ui/server-split';

const BOUNDARY_SERIES: SeriesDef[] = [
  { key: 'refused', label: 'Refused (correct)', color: 'refused', stack: 'b', flag: 'refused' },
  { key: 'naiveResumes', label: 'Naive resume', color: 'naive', stack: 'b', flag: 'naive_resume' },
  { key: 'unanswered', label: 'Unanswered', color: 'pending', stack: 'b', flag: 'boundary' },
];
const DEADLOCK_SERIES: SeriesDef[] = [
  { key: 'deadlocks', label: 'Deadlocks', color: 'deadlock', stack: 'd', flag: 'deadlock' },
  { key: 'dualNegotiations', label: 'Dual negotiations', color: 'dual', stack: 'd', flag: 'dual_negotiation' },
  { key: 'burnedTokenReuses', label: 'Burned-token reuse', color: 'pending', stack: 'd', flag: 'burned_token_reuse' },
];
const RENEG_SERIES: SeriesDef[] = [
  { key: 'drops', label: 'Stream drops', color: 'drops', stack: 'r' },
  { key: 'renegotiations', label: 'Renegotiations', color: 'reneg', stack: 'r', flag: 'renegotiated' },
  { key: 'rate', label: 'Renegotiation rate', color: 'accent', kind: 'line', right: true, format: (v) => fmtPct(v, 1) },
];

const REFUSAL_LATENCY_SERIES: SeriesDef[] = [
  { key: 'refusalP50', label: 'p50', color: 'refused', kind: 'line', format: fmtLatency },
  { key: 'refusalP95', label: 'p95', color: 'pending', kind: 'line', dashed: true, format: fmtLatency },
  { key: 'refusalN', label: 'refusals', color: 'muted', kind: 'tip', format: fmtInt },
];
const RENEG_LATENCY_SERIES: SeriesDef[] = [
  { key: 'renegP50', label: 'p50', color: 'reneg', kind: 'line', format: fmtLatency },
  { key: 'renegP95', label: 'p95', color: 'pending', kind: 'line', dashed: true, format: fmtLatency },
  { key: 'renegN', label: 'renegotiations', color: 'muted', kind: 'tip', format: fmtInt },
];

/** One per-bucket chart on the overview. */
export interface ChartSpec {
  series: SeriesDef[];
  height: number;
  ariaLabel: string;
  testId: string;
  /** Session-list flag a click drills into when it hit no flagged series (also the panel's list link). */
  flag: string;
  /** Title of the panel's list link. */
  listTitle?: string;
  /** Caption (with legend) shown above the chart. */
  caption?: string;
  leftFormat?: (v: number) => string;
  /** With ?split=server: the per-server counter drawn instead (one stacked series per server). */
  splitMeasure?: SplitMeasure;
}

export const CHARTS = {
  boundary: {
    series: BOUNDARY_SERIES,
    height: 210,
    ariaLabel: 'Boundary entries per bucket, by outcome',
    testId: 'chart-boundary',
    flag: 'boundary',
    splitMeasure: 'boundary',
    listTitle: 'List every boundary session in this range',
  },
  deadlocks: {
    series: DEADLOCK_SERIES,
    height: 210,
    ariaLabel: 'Deadlocks and dual negotiations per bucket',
    testId: 'chart-deadlocks',
    flag: 'deadlock',
    splitMeasure: 'deadlocks',
    listTitle: 'List deadlocked sessions in this range',
  },
  refusalLatency: {
    series: REFUSAL_LATENCY_SERIES,
    height: 130,
    leftFormat: msTick,
    ariaLabel: 'Refusal latency p50 and p95 per bucket',
    testId: 'chart-refusal-percentiles',
    flag: 'refused',
    caption: 'Refusal latency per bucket (ms)',
  },
  renegotiations: {
    series: RENEG_SERIES,
    height: 130,
    ariaLabel: 'Stream drops, renegotiations and renegotiation rate per bucket',
    testId: 'chart-renegotiations',
    flag: 'renegotiated',
    splitMeasure: 'renegotiations',
    listTitle: 'List renegotiated sessions in this range',
  },
  renegotiationLatency: {
    series: RENEG_LATENCY_SERIES,
    height: 130,
    leftFormat: msTick,
    ariaLabel: 'Renegotiation latency p50 and p95 per bucket',
    testId: 'chart-renegotiation-percentiles',
    flag: 'renegotiated',
    caption: 'Renegotiation latency per bucket (ms)',
  },
} satisfies Record<string, ChartSpec>;

/** Horizontal room a chart's axes take from its box (series-chart.tsx: a 44 px left axis, -14 px margin, 16 px right). */
export const CHART_AXES_PX = 44 - 14 + 16;

export function toRows(stats: TStatsResponse): SeriesRow[] {
  return stats.series.map((b) => ({
    t: Date.parse(b.t),
    refused: b.refused,
    naiveResumes: b.naiveResumes,
    unanswered: Math.max(0, b.boundary - b.refused - b.naiveResumes),
    boundary: b.boundary,
    deadlocks: b.deadlocks,
    dualNegotiations: b.dualNegotiations,
    burnedTokenReuses: b.burnedTokenReuses,
    drops: b.drops,
    renegotiations: b.renegotiations,
    rate: b.drops > 0 ? b.renegotiations / b.drops : null,
    sessions: b.sessions,
    refusalP50: b.refusalLatencyMs.p50,
    refusalP95: b.refusalLatencyMs.p95,
    refusalN: b.refusalLatencyMs.count,
    renegP50: b.renegotiationLatencyMs.p50,
    renegP95: b.renegotiationLatencyMs.p95,
    renegN: b.renegotiationLatencyMs.count,
  }));
}

/** A count chart split by server: stacked bars, one per server of the top few plus "other". */
export function splitChart(byServer: TStatsResponse['byServer'], measure: SplitMeasure, flag: string, slots: Map<string, number>) {
  const { series, rows } = splitByServer(byServer ?? [], measure);
  const defs: SeriesDef[] = series.map((x) => {
    const slot = x.server === null ? undefined : slots.get(x.server);
    return {
      key: x.key,
      label: x.label,
      color: 'muted',
      stack: 'srv',
      flag,
      server: x.server ?? undefined,
      paint: slot === undefined ? { ...OTHER_COLOR } : { light: SERVER_COLORS.light[slot], dark: SERVER_COLORS.dark[slot] },
    };
  });
  return { series: defs, rows: rows as SeriesRow[] };
}
