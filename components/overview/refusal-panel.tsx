'use client';
// Refusal latency: resume.requested → resume.refused, its percentiles, histogram and p50/p95 per bucket.
import { useRouter } from 'next/navigation';
import { HistogramChart } from '@/components/charts/lazy-charts';
import { Panel } from '@/components/panel';
import { RowLink } from '@/components/row-link';
import { Empty } from '@/components/states';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { fmtInt, fmtLatency } from '@/lib/ui/format';
import { OverviewChart, type ChartFrame } from './chart-frame';
import { CHARTS } from './chart-specs';
import { PctStrip, fmtPercentileMethod } from './figures';

export function RefusalPanel({ frame, stats: s }: { frame: ChartFrame; stats: TStatsResponse }) {
  const router = useRouter();
  return (
    <Panel
      id="h-refusal"
      title="Refusal latency"
      aside={
        <>
          resume.requested → resume.refused <RowLink href={frame.sessionsLink({ flag: 'refused' })}>list →</RowLink>
        </>
      }
    >
      <div className="panel-body">
        <PctStrip
          testId="refusal-percentiles"
          items={[
            ...(['p50', 'p95', 'p99', 'max'] as const).map((k): [string, string] => [k, fmtLatency(s.refusalLatencyMs[k])]),
            ['count', fmtInt(s.refusalLatencyMs.count)],
            ['percentiles', fmtPercentileMethod(s.percentiles.refusal)],
          ]}
        />
        {s.refusalLatencyMs.count === 0 ? (
          <Empty title="No refusals in this range" height={150}>
            <span data-testid="refusal-latency-empty">
              Doorwatch measures the refusal latency on the server: from a session&apos;s resume.requested to its resume.refused
              (session-superseded), as the server timestamps them. The design note&apos;s &quot;~50 ms&quot; is how fast its fault-injection
              runs failed once the server refused instead of leaving a 300 s deadlock; the note does not say where it was measured, so it is
              not a target for this number.
            </span>
          </Empty>
        ) : (
          <>
            <HistogramChart
              buckets={s.refusalLatencyHistogram}
              height={130}
              onClick={() => router.push(frame.sessionsLink({ flag: 'refused' }))}
            />
            <OverviewChart spec={CHARTS.refusalLatency} frame={frame} bucketMs={s.bucketMs} />
          </>
        )}
      </div>
    </Panel>
  );
}
