'use client';
// Deadlocks, dual negotiations and burned-token reuse per bucket (or deadlocks by server), with the idle time they cost.
import { Panel } from '@/components/panel';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { fmtDuration } from '@/lib/ui/format';
import { ListLink, OverviewChart, type ChartFrame } from './chart-frame';
import { CHARTS } from './chart-specs';

export function DeadlocksPanel({ frame, stats: s }: { frame: ChartFrame; stats: TStatsResponse }) {
  return (
    <Panel
      id="h-deadlocks"
      title={frame.split === 'server' ? 'Deadlocks by server' : 'Deadlocks & dual negotiations'}
      aside={<ListLink spec={CHARTS.deadlocks} frame={frame} />}
    >
      <div className="panel-body">
        <OverviewChart spec={CHARTS.deadlocks} frame={frame} bucketMs={s.bucketMs} />
        <div className="small muted">
          Total idle time in deadlocks: <strong className="num">{fmtDuration(s.deadlocks.idleMs)}</strong> (ended + ongoing, threshold{' '}
          {fmtDuration(s.deadlockThresholdMs)})
        </div>
      </div>
    </Panel>
  );
}
