'use client';
// What every chart on the overview shares: one time axis over the range's buckets (its ticks fit the
// measured chart width), one percentage axis for the rate, the per-server split and the drill-down a
// click on a bucket makes. useChartFrame computes it once per answer; OverviewChart draws one spec with it.
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { RowLink } from '@/components/row-link';
import { SeriesChart } from '@/components/charts/lazy-charts';
import { Legend, type SeriesDef, type SeriesRow } from '@/components/charts/series-legend';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { alignRows, percentAxis, tickBudget, tickLabelPx, timeAxis, type PercentAxis, type TimeAxis } from '@/lib/ui/chart-axis';
import { fmtPct, type TimeZoneMode } from '@/lib/ui/format';
import { serverColorSlots } from '@/lib/ui/palette';
import type { SplitMeasure } from '@/lib/ui/server-split';
import { chartMarkers, type ChartMarker } from '@/lib/ui/chart-markers';
import type { TAnnotationListResponse } from '@/lib/contract/api/annotations';
import type { ChartSplit, ParamPatch } from '@/lib/ui/url-state';
import { CHART_AXES_PX, CHARTS, splitChart, toRows, type ChartSpec } from './chart-specs';

/** A click on a bucket: its bounds, the flag of the series hit (if any), the chart's own flag, the bar's server. */
export type Drill = (fromMs: number, toMs: number, flag: string | undefined, fallback: string, barServer?: string) => void;

export interface ChartFrame {
  split: ChartSplit;
  tz: TimeZoneMode;
  axis: TimeAxis | null;
  rateAxis: PercentAxis;
  /** The series and rows a chart draws: per outcome, or per server when split, on the shared buckets. */
  view: (spec: ChartSpec) => { series: SeriesDef[]; rows: SeriesRow[] };
  drill: Drill;
  sessionsLink: (extra: ParamPatch) => string;
  /** Annotations and first-reported versions on the shared axis: every chart draws them. */
  markers: ChartMarker[];
}

/** The width of an element, kept current as it resizes (0 until measured). */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => setWidth(Math.round(el.getBoundingClientRect().width));
    read();
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  });
  return width;
}

export function useChartFrame(
  s: TStatsResponse | undefined,
  opts: {
    split: ChartSplit;
    tz: TimeZoneMode;
    drill: Drill;
    sessionsLink: (extra: ParamPatch) => string;
    annotations?: TAnnotationListResponse;
  },
): { frame: ChartFrame; chartRef: RefObject<HTMLDivElement | null> } {
  const { split, annotations } = opts;
  const rows = useMemo(() => (s ? toRows(s) : []), [s]);
  // Colours over every server in range, so one server has one colour in every chart.
  const slots = useMemo(() => serverColorSlots((s?.byServer ?? []).map((b) => b.server)), [s]);
  const splits = useMemo(() => {
    const out = new Map<SplitMeasure, { series: SeriesDef[]; rows: SeriesRow[] }>();
    if (split !== 'server' || !s) return out;
    for (const spec of Object.values(CHARTS) as ChartSpec[])
      if (spec.splitMeasure) out.set(spec.splitMeasure, splitChart(s.byServer, spec.splitMeasure, spec.flag, slots));
    return out;
  }, [split, s, slots]);
  // One time axis for every panel: the range's buckets and the ticks that fit the (shared) chart width.
  // Measured for the shared axis: every chart on the page is as wide as the element this ref is put on.
  const chartRef = useRef<HTMLDivElement>(null);
  const chartWidth = useWidth(chartRef);
  const axis = useMemo((): TimeAxis | null => {
    if (!s) return null;
    const fromMs = Date.parse(s.range.from);
    const toMs = Date.parse(s.range.to);
    return timeAxis(fromMs, toMs, s.bucketMs, tickBudget(chartWidth - CHART_AXES_PX, tickLabelPx(toMs - fromMs)));
  }, [s, chartWidth]);
  const rateAxis = useMemo((): PercentAxis => percentAxis(rows.map((r) => r.rate)), [rows]);
  const view = (spec: ChartSpec) => {
    const v = (spec.splitMeasure && splits.get(spec.splitMeasure)) || { series: spec.series, rows };
    return { series: v.series, rows: axis ? (alignRows(axis.starts, v.rows) as SeriesRow[]) : v.rows };
  };
  const markers = useMemo(() => (axis && s ? chartMarkers(annotations, axis.starts, s.bucketMs) : []), [annotations, axis, s]);
  return { frame: { ...opts, axis, rateAxis, view, markers }, chartRef };
}

function ChartCaption({ title, series }: { title: string; series: SeriesDef[] }) {
  return (
    <div className="row gap small muted" style={{ justifyContent: 'space-between', marginTop: 8 }}>
      <span>{title}</span>
      <Legend series={series} />
    </div>
  );
}

export function OverviewChart({ spec, frame, bucketMs }: { spec: ChartSpec; frame: ChartFrame; bucketMs: number }) {
  const { axis, rateAxis, split } = frame;
  const v = frame.view(spec);
  const hasRate = v.series.some((x) => x.right);
  return (
    <>
      {spec.caption && <ChartCaption title={spec.caption} series={spec.series} />}
      <SeriesChart
        data={v.rows}
        series={v.series}
        bucketMs={bucketMs}
        axis={axis ?? timeAxis(0, bucketMs, bucketMs, 1)}
        tz={frame.tz}
        height={spec.height}
        leftFormat={spec.leftFormat}
        rightScale={hasRate ? rateAxis : undefined}
        rightFormat={hasRate ? (x) => fmtPct(x, rateAxis.digits) : undefined}
        ariaLabel={spec.splitMeasure && split === 'server' ? `${spec.ariaLabel}, split by server` : spec.ariaLabel}
        testId={spec.testId}
        onBucketClick={(a, b, flag, barServer) => frame.drill(a, b, flag, spec.flag, barServer)}
        markers={frame.markers}
      />
      {/* Below the chart, not in the panel's head: a long legend (split by server) wrapped the head and
          pushed one panel's chart lower than its neighbour's. */}
      {!spec.caption && (
        <div className="chart-legend">
          <Legend series={v.series} testId={`legend-${spec.testId}`} />
        </div>
      )}
    </>
  );
}

/** A panel's aside: a link to the sessions its chart counts (the legend is under the chart). */
export function ListLink({ spec, frame }: { spec: ChartSpec; frame: ChartFrame }) {
  return (
    <RowLink href={frame.sessionsLink({ flag: spec.flag })} title={spec.listTitle} className="nowrap">
      list →
    </RowLink>
  );
}
