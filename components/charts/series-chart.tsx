'use client';
import { useRef } from 'react';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';
import type { ChartMarker } from '@/lib/ui/chart-markers';
import { useEffectiveTheme } from '@/components/shell/theme';
import { fmtDateTime, fmtTick, type TimeZoneMode } from '@/lib/ui/format';
import type { PercentAxis, TimeAxis } from '@/lib/ui/chart-axis';
import { PALETTES } from '@/lib/ui/palette';
// The legend, the series types and the latency tick live apart from Recharts (series-legend.tsx):
// the overview draws legends in its first render and loads this module lazily (lazy-charts.tsx).
import { colorOf, type SeriesDef, type SeriesRow } from './series-legend';

export interface SeriesChartProps {
  data: SeriesRow[];
  series: SeriesDef[];
  bucketMs: number;
  /** The page's shared time axis (lib/ui/chart-axis.ts): `data` holds one row per `axis.starts`, in order. */
  axis: TimeAxis;
  tz: TimeZoneMode;
  height?: number;
  /** Left-axis tick format (default: the plain number). */
  leftFormat?: (v: number) => string;
  rightFormat?: (v: number) => string;
  /** The right axis' scale (a rate: percentAxis); default 0 to the data's max. */
  rightScale?: PercentAxis;
  /** Called with the bucket's [from, to) and the clicked series' flag and server (if a bar was hit). */
  onBucketClick?: (fromMs: number, toMs: number, flag: string | undefined, server?: string) => void;
  testId?: string;
  ariaLabel: string;
  /** Annotations and first-reported versions, drawn as labelled vertical lines (lib/ui/chart-markers.ts). */
  markers?: readonly ChartMarker[];
}

/** Width of the left value axis and the room right of the plot (half a time label): the same in every chart. */
const AXIS_WIDTH = 44;
const RIGHT_ROOM = 16;

function Tip({
  active,
  payload,
  series,
  tz,
  bucketMs,
  clickable,
}: TooltipContentProps<number, string> & { series: SeriesDef[]; tz: TimeZoneMode; bucketMs: number; clickable: boolean }) {
  if (!active || !payload?.length) return null;
  const row = payload[0].payload as SeriesRow;
  return (
    <div className="chart-tip">
      <div className="chart-tip-title">
        {fmtDateTime(row.t, tz).slice(0, 16)} – {fmtDateTime(row.t + bucketMs, tz).slice(11, 16)}
      </div>
      {series.map((s) => {
        const p = payload.find((x) => x.dataKey === s.key);
        const v = row[s.key];
        return (
          <div className="chart-tip-row" key={s.key}>
            <span className="swatch" style={{ background: s.kind === 'tip' ? 'transparent' : (p?.color ?? 'currentColor') }} />
            {s.label}
            <span className="v">{v === null || v === undefined ? '—' : s.format ? s.format(v) : v}</span>
          </div>
        );
      })}
      {clickable && <div className="chart-tip-hint">Click to list these sessions</div>}
    </div>
  );
}

/** A marker's label: short text on the chart, the whole text as its tooltip (React escapes both). */
function MarkerLabel({ viewBox, marker, color }: { viewBox?: { x?: number; y?: number }; marker: ChartMarker; color: string }) {
  const x = (viewBox?.x ?? 0) + 3;
  const y = (viewBox?.y ?? 0) + 10;
  return (
    <text x={x} y={y} fill={color} fontSize={10} data-testid="chart-marker" data-marker-kind={marker.kind}>
      <title>{marker.title}</title>
      {marker.label}
    </text>
  );
}

/** The markers as vertical lines on the left axis (a call, not a component: Recharts reads its direct children). */
function markerLines(markers: readonly ChartMarker[], pal: { muted: string; axis: string }) {
  return markers.map((m) => {
    const color = m.kind === 'version' ? pal.muted : pal.axis;
    return (
      <ReferenceLine
        key={m.key}
        yAxisId="l"
        x={m.x}
        stroke={color}
        strokeDasharray={m.kind === 'version' ? '2 3' : '4 2'}
        ifOverflow="extendDomain"
        label={(props: { viewBox?: { x?: number; y?: number } }) => <MarkerLabel viewBox={props.viewBox} marker={m} color={color} />}
      />
    );
  });
}

export function SeriesChart({
  data,
  series,
  bucketMs,
  axis,
  tz,
  height = 200,
  leftFormat,
  rightFormat,
  rightScale,
  onBucketClick,
  testId,
  ariaLabel,
  markers = [],
}: SeriesChartProps) {
  const theme = useEffectiveTheme();
  const pal = PALETTES[theme];
  const barHit = useRef(false);
  const span = axis.domain[1] - axis.domain[0];
  const hasRight = series.some((s) => s.right);

  const click = (index: number, flag: string | undefined, server?: string) => {
    const row = data[index];
    if (row && onBucketClick) onBucketClick(row.t, row.t + bucketMs, flag, server);
  };

  return (
    <div
      className={`chart ${onBucketClick ? 'chart-click' : ''}`}
      style={{ height }}
      data-testid={testId}
      role="img"
      aria-label={ariaLabel}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={data}
          // Every chart has the same left axis width and right room, so the plot areas of all panels
          // line up and a bucket sits at the same x in each. A right (rate) axis is drawn inside the
          // plot (mirror) rather than beside it: a gutter kept for it left single-axis charts 50 px
          // of nothing on the right (15% of a phone's width).
          margin={{ top: 6, right: RIGHT_ROOM, bottom: 0, left: -14 }}
          barCategoryGap={1}
          onClick={(state) => {
            if (barHit.current) {
              barHit.current = false;
              return;
            }
            const i = typeof state.activeTooltipIndex === 'number' ? state.activeTooltipIndex : Number(state.activeTooltipIndex);
            if (Number.isFinite(i)) click(i, undefined);
          }}
        >
          <CartesianGrid vertical={false} stroke={pal.grid} />
          <XAxis
            dataKey="t"
            tickFormatter={(v: number) => fmtTick(v, tz, span)}
            stroke={pal.axis}
            tick={{ fill: pal.muted, fontSize: 11 }}
            // A band per bucket in every chart, lines-only ones included (they would default to
            // points spread edge to edge): the same bucket at the same x in each panel.
            scale="band"
            ticks={axis.ticks}
            interval={0}
            tickLine={false}
          />
          <YAxis
            yAxisId="l"
            allowDecimals={false}
            stroke={pal.axis}
            tick={{ fill: pal.muted, fontSize: 11 }}
            tickLine={false}
            axisLine={false}
            width={AXIS_WIDTH}
            tickFormatter={leftFormat}
          />
          {hasRight && (
            <YAxis
              yAxisId="r"
              orientation="right"
              mirror
              className="axis-inside"
              stroke={pal.axis}
              tick={{ fill: pal.muted, fontSize: 11 }}
              tickLine={false}
              axisLine={false}
              width={AXIS_WIDTH}
              domain={rightScale?.domain ?? [0, (dataMax: number) => Math.max(1, dataMax)]}
              ticks={rightScale?.ticks}
              interval={rightScale ? 0 : undefined}
              allowDataOverflow={!!rightScale}
              tickFormatter={rightFormat}
            />
          )}
          <Tooltip
            cursor={{ fill: pal.cursor }}
            isAnimationActive={false}
            content={(props) => (
              <Tip
                {...(props as TooltipContentProps<number, string>)}
                series={series}
                tz={tz}
                bucketMs={bucketMs}
                clickable={!!onBucketClick}
              />
            )}
          />
          {series.map((s) =>
            s.kind === 'tip' ? null : s.kind === 'line' ? (
              <Line
                key={s.key}
                yAxisId={s.right ? 'r' : 'l'}
                dataKey={s.key}
                name={s.label}
                stroke={colorOf(s, theme, pal)}
                strokeWidth={1.8}
                strokeDasharray={s.dashed ? '5 3' : undefined}
                dot={
                  s.dashed
                    ? { r: 4, fill: 'none', stroke: colorOf(s, theme, pal), strokeWidth: 1.5, strokeDasharray: '' }
                    : { r: 2.5, fill: colorOf(s, theme, pal), strokeWidth: 0 }
                }
                activeDot={{ r: 4 }}
                connectNulls={false}
                isAnimationActive={false}
              />
            ) : (
              <Bar
                key={s.key}
                yAxisId={s.right ? 'r' : 'l'}
                dataKey={s.key}
                name={s.label}
                stackId={s.stack}
                fill={colorOf(s, theme, pal)}
                maxBarSize={28}
                isAnimationActive={false}
                onClick={(_d, index) => {
                  barHit.current = true;
                  click(index, s.flag, s.server);
                }}
              />
            ),
          )}
          {markerLines(markers, pal)}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
