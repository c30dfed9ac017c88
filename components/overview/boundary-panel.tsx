'use client';
// Boundary entries per bucket, by answer (refused, naive resume, unanswered) or by server.
import type { RefObject } from 'react';
import { Panel } from '@/components/panel';
import { ListLink, OverviewChart, type ChartFrame } from './chart-frame';
import { CHARTS } from './chart-specs';

export function BoundaryPanel({
  frame,
  bucketMs,
  chartRef,
}: {
  frame: ChartFrame;
  bucketMs: number;
  chartRef: RefObject<HTMLDivElement | null>;
}) {
  return (
    <Panel
      id="h-boundary"
      title={frame.split === 'server' ? 'Boundary entries by server' : 'Boundary entries by answer'}
      aside={<ListLink spec={CHARTS.boundary} frame={frame} />}
    >
      <div className="panel-body">
        {/* Measured for the shared axis: every chart on the page is this wide. */}
        <div ref={chartRef}>
          <OverviewChart spec={CHARTS.boundary} frame={frame} bucketMs={bucketMs} />
        </div>
      </div>
    </Panel>
  );
}
