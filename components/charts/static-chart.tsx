// The overview's charts as plain SVG, drawn on the server into the first HTML and kept (a React
// component of the query data, so it follows a refetch) until Recharts' chunk has drawn the
// interactive chart over it (lazy-charts.tsx). Same box, plot area, ticks, colours and series as
// series-chart.tsx / histogram-chart.tsx; no hooks, no Recharts. Widths without JS: x is a
// percentage of the plot (lib/ui/chart-geometry.ts with a 100-wide viewBox); y, strokes and text
// are pixels. Both themes' colours ride along as CSS variables, since the server does not know
// which theme the browser shows (globals.css picks one under `data-theme`).
import type { CSSProperties, ReactNode } from 'react';
import type { THistogramBucket } from '@/lib/contract/api/stats';
import { chartGeometry, type ChartGeometry } from '@/lib/ui/chart-geometry';
import { fmtTick } from '@/lib/ui/format';
import { PALETTES, type Palette } from '@/lib/ui/palette';
import type { SeriesChartProps } from './series-chart';
import { bucketTick, colorOf } from './series-legend';

/** Where Recharts puts the plot in the box: its margins plus the 44 px left axis and the 30 px time axis. */
const PLOT = { top: 6, left: 30, bottom: 30 } as const;
/**
 * The highest a left-axis label's middle sits, in plot coordinates: Recharts keeps that axis' top label
 * (its default interval, preserveEnd) inside the chart box, 8 px below its top edge for an 11 px label.
 */
const LEFT_LABEL_TOP = 8 - PLOT.top;
/** series-chart.tsx's right room; histogram-chart.tsx's right margin. */
const SERIES_RIGHT = 16;
const HISTOGRAM_RIGHT = 8;

/** A paint in both themes, as the variables globals.css picks from (`.cs-paint`, inherited by a group's shapes). */
const paint = (light: string, dark: string) => ({ '--c-light': light, '--c-dark': dark }) as CSSProperties;
const rolePaint = (role: keyof Palette) => paint(PALETTES.light[role], PALETTES.dark[role]);

/** Coordinates as written in the HTML: a thousandth of a percent or a pixel is plenty (and keeps the page small). */
const n = (v: number) => Math.round(v * 1000) / 1000;
const pct = (v: number) => `${n(v)}%`;

/**
 * The bars, one group per series. Each bar's slot is its attributes; globals.css (`.cs-bar`) narrows it
 * by the chart's gap and maximum width (Recharts' barCategoryGap and maxBarSize, set on the chart) with
 * SVG geometry in CSS, around the slot's centre.
 */
function Bars({ bars, paintOf }: { bars: ChartGeometry['bars']; paintOf: (series: number) => CSSProperties }) {
  const bySeries = new Map<number, ChartGeometry['bars']>();
  for (const b of bars) bySeries.set(b.series, [...(bySeries.get(b.series) ?? []), b]);
  return [...bySeries].map(([series, own]) => (
    <g key={series} className="cs-paint cs-bars" style={paintOf(series)}>
      {own.map((b) => (
        <rect
          key={b.row}
          className="cs-bar"
          x={pct(b.x)}
          width={pct(b.width)}
          y={n(b.y)}
          height={n(b.height)}
          style={{ '--x': pct(b.x) } as CSSProperties}
        />
      ))}
    </g>
  ));
}

interface FrameProps {
  /** `cs-series` or `cs-histogram`: the bars' gap and maximum width (globals.css). */
  kind: string;
  height: number;
  right: number;
  ariaLabel: string;
  geometry: ChartGeometry;
  leftFormat?: (v: number) => string;
  rightFormat?: (v: number) => string;
  xTicks: { x: number; label: string }[];
  children: ReactNode;
}

/** The box, the grid, the axes and their labels around what a chart draws (`children`, in plot coordinates). */
function Frame({ kind, height, right, ariaLabel, geometry, leftFormat, rightFormat, xTicks, children }: FrameProps) {
  const plotH = Math.max(0, height - PLOT.top - PLOT.bottom);
  const fmtL = leftFormat ?? String;
  const fmtR = rightFormat ?? String;
  return (
    <div className={`chart chart-static ${kind}`} style={{ height }} role="img" aria-label={ariaLabel}>
      {/* Sized explicitly: an absolutely placed <svg> is a replaced element, and would not stretch between left and right. */}
      <svg
        className="cs-plot"
        style={{
          left: PLOT.left,
          top: PLOT.top,
          width: `calc(100% - ${PLOT.left + right}px)`,
          height: plotH,
          ['--w' as string]: pct(geometry.barWidth),
        }}
        overflow="visible"
        aria-hidden="true"
      >
        {geometry.left.ticks.map((t) => (
          <line key={t.value} className="cs-grid" x1="0" x2="100%" y1={n(t.y)} y2={n(t.y)} />
        ))}
        {children}
        <line className="cs-axis" x1="0" x2="100%" y1={plotH} y2={plotH} />
        {geometry.left.ticks.map((t) => (
          <text key={t.value} className="cs-text" x={-8} y={Math.max(n(t.y), LEFT_LABEL_TOP)} dy="0.355em" textAnchor="end">
            {fmtL(t.value)}
          </text>
        ))}
        {geometry.right?.ticks.map((t) => (
          <text key={t.value} className="cs-text cs-inside" x="100%" dx={-8} y={n(t.y)} dy="0.355em" textAnchor="end">
            {fmtR(t.value)}
          </text>
        ))}
        {xTicks.map((t) => (
          <text key={t.x} className="cs-text" x={pct(t.x)} y={plotH + 8} dy="0.71em" textAnchor="middle">
            {t.label}
          </text>
        ))}
      </svg>
    </div>
  );
}

/** What the drawn frame needs of the interactive chart's props (the type only: no Recharts here). */
type SeriesProps = Pick<
  SeriesChartProps,
  'data' | 'series' | 'axis' | 'tz' | 'height' | 'leftFormat' | 'rightFormat' | 'rightScale' | 'ariaLabel' | 'markers'
>;

/** series-chart.tsx's chart as plain SVG: stacked bars, lines with their dots, markers, both axes. */
export function StaticSeriesChart(props: SeriesProps) {
  const { data, series, axis, height = 200, markers = [] } = props;
  const plotH = Math.max(0, height - PLOT.top - PLOT.bottom);
  const g = chartGeometry({ rows: data, series, width: 100, height: plotH, rightScale: props.rightScale });
  const span = axis.domain[1] - axis.domain[0];
  const colour = (i: number) => paint(colorOf(series[i], 'light', PALETTES.light), colorOf(series[i], 'dark', PALETTES.dark));
  const xTicks = axis.ticks.flatMap((t) => {
    const x = g.xOf(t);
    return x === null ? [] : [{ x, label: fmtTick(t, props.tz, span) }];
  });
  const { ariaLabel, leftFormat, rightFormat } = props;
  return (
    <Frame kind="cs-series" right={SERIES_RIGHT} geometry={g} xTicks={xTicks} {...{ height, ariaLabel, leftFormat, rightFormat }}>
      <Bars bars={g.bars} paintOf={colour} />
      {/* Lines in a 100-wide viewBox stretched to the plot; their strokes stay 1.8 px at any width. */}
      <svg width="100%" height={plotH} viewBox={`0 0 100 ${plotH}`} preserveAspectRatio="none" overflow="visible">
        {g.lines.map((l) => (
          <path
            key={l.key}
            className="cs-paint cs-line"
            d={l.d}
            vectorEffect="non-scaling-stroke"
            strokeDasharray={series[l.series].dashed ? '5 3' : undefined}
            style={colour(l.series)}
          />
        ))}
      </svg>
      {/* Dots outside the stretched viewBox, so they stay round: hollow on a dashed line, as series-chart.tsx draws them. */}
      {g.lines.map((l) => (
        <g key={l.key} className={`cs-paint ${series[l.series].dashed ? 'cs-dots-hollow' : 'cs-dots'}`} style={colour(l.series)}>
          {l.dots.map((d, i) => (
            <circle key={i} cx={pct(d.x)} cy={n(d.y)} r={series[l.series].dashed ? 4 : 2.5} />
          ))}
        </g>
      ))}
      {markers.map((m) => {
        const x = g.xOf(m.x);
        if (x === null) return null;
        const style = rolePaint(m.kind === 'version' ? 'muted' : 'axis');
        return (
          <g key={m.key}>
            <line
              className="cs-paint cs-marker"
              x1={pct(x)}
              x2={pct(x)}
              y1={0}
              y2={plotH}
              strokeDasharray={m.kind === 'version' ? '2 3' : '4 2'}
              style={style}
            />
            <text className="cs-paint cs-marker-label" x={pct(x)} dx={3} y={10} style={style}>
              <title>{m.title}</title>
              {m.label}
            </text>
          </g>
        );
      })}
    </Frame>
  );
}

/** histogram-chart.tsx's chart as plain SVG: one bar per latency bucket. */
export function StaticHistogramChart({ buckets, height = 170 }: { buckets: THistogramBucket[]; height?: number }) {
  const plotH = Math.max(0, height - PLOT.top - PLOT.bottom);
  const rows = buckets.map((b, i) => ({ t: i, count: b.count }));
  const g = chartGeometry({ rows, series: [{ key: 'count' }], width: 100, height: plotH });
  const xTicks = buckets.map((b, i) => ({ x: g.xOf(i) ?? 0, label: bucketTick(b) }));
  return (
    <Frame kind="cs-histogram" height={height} right={HISTOGRAM_RIGHT} ariaLabel="Refusal latency histogram" geometry={g} xTicks={xTicks}>
      <Bars bars={g.bars} paintOf={() => rolePaint('refused')} />
    </Frame>
  );
}
