// Small pieces the overview's panels share: a strip of labelled figures and how a percentile was computed.
import type { TPercentileMethod } from '@/lib/contract/api/stats';

/** Whether the percentiles shown are exact or from the histograms, and how close (lib/queries/stats.ts). */
export function fmtPercentileMethod(m: TPercentileMethod): string {
  return m.method === 'exact' ? 'exact' : `≈ ±${Math.round(m.relativeError * 100)} %`;
}

/** A row of labelled figures (percentiles, rates) above a chart. */
export function PctStrip({ items, testId }: { items: [label: string, value: string][]; testId?: string }) {
  return (
    <div className="pct-strip" data-testid={testId}>
      {items.map(([k, v]) => (
        <div key={k}>
          <span className="k">{k}</span>
          <span className="v">{v}</span>
        </div>
      ))}
    </div>
  );
}
