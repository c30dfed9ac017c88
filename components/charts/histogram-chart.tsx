'use client';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';
import { useEffectiveTheme } from '@/components/shell/theme';
import type { THistogramBucket } from '@/lib/contract/api/stats';
import { fmtDuration, fmtInt } from '@/lib/ui/format';
import { PALETTES } from '@/lib/ui/palette';
import { bucketTick } from './series-legend';

// Buckets count latency ≤ toMs (as Prometheus's `le`), above the previous edge.
const label = (b: THistogramBucket) =>
  b.toMs === null
    ? `> ${fmtDuration(b.fromMs)}`
    : b.fromMs === 0
      ? `≤ ${fmtDuration(b.toMs)}`
      : `> ${fmtDuration(b.fromMs)}, ≤ ${fmtDuration(b.toMs)}`;

export function HistogramChart({ buckets, height = 170, onClick }: { buckets: THistogramBucket[]; height?: number; onClick?: () => void }) {
  const theme = useEffectiveTheme();
  const pal = PALETTES[theme];
  const data = buckets.map((b) => ({ ...b, name: bucketTick(b), full: label(b) }));
  return (
    <div
      className={`chart ${onClick ? 'chart-click' : ''}`}
      style={{ height }}
      role="img"
      aria-label="Refusal latency histogram"
      data-testid="refusal-histogram"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={data}
          margin={{ top: 6, right: 8, bottom: 0, left: -14 }}
          barCategoryGap={2}
          onClick={onClick ? () => onClick() : undefined}
        >
          <CartesianGrid vertical={false} stroke={pal.grid} />
          <XAxis dataKey="name" stroke={pal.axis} tick={{ fill: pal.muted, fontSize: 10.5 }} tickLine={false} interval="preserveStartEnd" />
          <YAxis
            allowDecimals={false}
            stroke={pal.axis}
            tick={{ fill: pal.muted, fontSize: 11 }}
            tickLine={false}
            axisLine={false}
            width={44}
          />
          <Tooltip
            cursor={{ fill: pal.cursor }}
            isAnimationActive={false}
            content={(p) => {
              const props = p as TooltipContentProps<number, string>;
              if (!props.active || !props.payload?.length) return null;
              const row = props.payload[0].payload as (typeof data)[number];
              return (
                <div className="chart-tip">
                  <div className="chart-tip-title">{row.full}</div>
                  <div className="chart-tip-row">
                    refusals <span className="v">{fmtInt(row.count)}</span>
                  </div>
                </div>
              );
            }}
          />
          <Bar dataKey="count" fill={pal.refused} isAnimationActive={false} maxBarSize={32} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
