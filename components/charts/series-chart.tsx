'use client';
import { useRef } from 'react';
import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';
import { useEffectiveTheme } from '@/components/shell/theme';
import { fmtDateTime, fmtTick, type TimeZoneMode } from '@/lib/ui/format';
import { PALETTES, type Palette } from '@/lib/ui/palette';

export interface SeriesDef {
  key: string;
  label: string;
  color: keyof Palette;
  /** `tip`: shown in the tooltip only (e.g. the sample size behind a percentile), not drawn. */
  kind?: 'bar' | 'line' | 'tip';
  stack?: string;
  /** Lines only: dashed, with hollow dots (stays visible where it meets a solid line). */
  dashed?: boolean;
  /** Right-hand axis (e.g. a rate next to counts). */
  right?: boolean;
  format?: (v: number) => string;
  /** Session-list flag a click on this series drills into. */
  flag?: string;
  /** A concrete colour per theme instead of a palette role (series split by server). */
  paint?: Record<'light' | 'dark', string>;
  /** The server this series stands for (split by server): a click drills into its sessions. */
  server?: string;
}

const colorOf = (s: SeriesDef, theme: 'light' | 'dark', pal: Palette) => s.paint?.[theme] ?? pal[s.color];

export interface SeriesRow {
  t: number;
  [key: string]: number | null;
}

interface Props {
  data: SeriesRow[];
  series: SeriesDef[];
  bucketMs: number;
  tz: TimeZoneMode;
  height?: number;
  /** Left-axis tick format (default: the plain number). */
  leftFormat?: (v: number) => string;
  rightFormat?: (v: number) => string;
  /** Called with the bucket's [from, to) and the clicked series' flag and server (if a bar was hit). */
  onBucketClick?: (fromMs: number, toMs: number, flag: string | undefined, server?: string) => void;
  testId?: string;
  ariaLabel: string;
}

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

export function SeriesChart({
  data,
  series,
  bucketMs,
  tz,
  height = 200,
  leftFormat,
  rightFormat,
  onBucketClick,
  testId,
  ariaLabel,
}: Props) {
  const theme = useEffectiveTheme();
  const pal = PALETTES[theme];
  const barHit = useRef(false);
  const span = data.length ? data[data.length - 1].t - data[0].t + bucketMs : bucketMs;
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
          margin={{ top: 6, right: hasRight ? 4 : 10, bottom: 0, left: -14 }}
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
            minTickGap={28}
            tickLine={false}
          />
          <YAxis
            yAxisId="l"
            allowDecimals={false}
            stroke={pal.axis}
            tick={{ fill: pal.muted, fontSize: 11 }}
            tickLine={false}
            axisLine={false}
            width={44}
            tickFormatter={leftFormat}
          />
          {hasRight && (
            <YAxis
              yAxisId="r"
              orientation="right"
              stroke={pal.axis}
              tick={{ fill: pal.muted, fontSize: 11 }}
              tickLine={false}
              axisLine={false}
              width={44}
              domain={[0, (dataMax: number) => Math.max(1, dataMax)]}
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
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

export function Legend({ series, testId }: { series: SeriesDef[]; testId?: string }) {
  const theme = useEffectiveTheme();
  const pal = PALETTES[theme];
  return (
    <div className="legend" data-testid={testId}>
      {series
        .filter((s) => s.kind !== 'tip')
        .map((s) => (
          <span key={s.key} data-testid="legend-item" data-series={s.label}>
            <span
              className="swatch"
              style={{
                background: s.dashed
                  ? `repeating-linear-gradient(90deg, ${colorOf(s, theme, pal)} 0 5px, transparent 5px 8px)`
                  : colorOf(s, theme, pal),
                borderRadius: s.kind === 'line' ? 5 : 2,
                height: s.kind === 'line' ? 3 : 9,
                width: s.kind === 'line' ? 14 : undefined,
              }}
            />
            {s.label}
          </span>
        ))}
    </div>
  );
}

/** Compact millisecond tick for a latency axis (as on the histogram's axis): 48, 1.5s, 2m. */
export function msTick(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)}s`;
  return `${+(ms / 60_000).toFixed(1)}m`;
}
