'use client';
// What the overview needs of its charts before Recharts has loaded: the series definitions, the
// legend drawn in a panel's header, and the latency axis ticks (series-chart.tsx draws the rest).
import { useEffectiveTheme } from '@/components/shell/theme';
import type { THistogramBucket } from '@/lib/contract/api/stats';
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

/** A series' colour in a theme: its own paint (split by server) or its palette role. */
export const colorOf = (s: SeriesDef, theme: 'light' | 'dark', pal: Palette) => s.paint?.[theme] ?? pal[s.color];

export interface SeriesRow {
  t: number;
  [key: string]: number | null;
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

/**
 * A refusal-histogram bucket's axis label: its upper edge, what the bucket counts up to (Prometheus's
 * `le`), or `>5s` for the open-ended last one. The lower edge read as the bar's value: "25" stood under
 * the bar of 25–50 ms.
 */
export const bucketTick = (b: THistogramBucket) => (b.toMs === null ? `>${msTick(b.fromMs)}` : msTick(b.toMs));
