'use client';
// Stream drops and renegotiations per bucket (or by server), the renegotiation rate and latency.
import { Panel } from '@/components/panel';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { fmtLatency, fmtPct } from '@/lib/ui/format';
import { ListLink, OverviewChart, type ChartFrame } from './chart-frame';
import { CHARTS } from './chart-specs';
import { PctStrip, fmtPercentileMethod } from './figures';

export function RenegotiationPanel({ frame, stats: s }: { frame: ChartFrame; stats: TStatsResponse }) {
  const r = s.renegotiations;
  return (
    <Panel
      id="h-reneg"
      title={frame.split === 'server' ? 'Renegotiations by server' : 'Renegotiations'}
      aside={<ListLink spec={CHARTS.renegotiations} frame={frame} />}
    >
      <div className="panel-body">
        <PctStrip
          items={[
            ['rate', fmtPct(r.rate, 2)],
            ['p50', fmtLatency(r.latencyMs.p50)],
            ['p95', fmtLatency(r.latencyMs.p95)],
            ['max', fmtLatency(r.latencyMs.max)],
            ['≤ 200 ms', r.count ? fmtPct(r.under200ms / r.count, 0) : '—'],
            ['percentiles', fmtPercentileMethod(s.percentiles.renegotiation)],
          ]}
        />
        <OverviewChart spec={CHARTS.renegotiations} frame={frame} bucketMs={s.bucketMs} />
        {r.count > 0 && <OverviewChart spec={CHARTS.renegotiationLatency} frame={frame} bucketMs={s.bucketMs} />}
      </div>
    </Panel>
  );
}
