'use client';
// The two lanes (server above, client below), each coloured by the side it is on after every event,
// cut at the plot's edges; an ongoing deadlock is drawn on to now with a dashed outline.
import type { SideStep } from '@/lib/boundary/sides';
import { SIDE_LABELS } from '@/lib/ui/sides';
import { GEOMETRY as G } from '@/lib/ui/timeline-labels';
import type { TTimelineEvent } from '@/lib/contract/api/session-detail';
import { sideColor, type Palette } from './timeline-parts';
import type { TimelineLayout } from './use-timeline-layout';

type LaneProps = { layout: TimelineLayout; events: TTimelineEvent[]; sides: SideStep[]; pal: Palette };

// Lane segments: from event i to i+1, coloured by the side after event i, cut at the plot edges.
function LaneSegments({ lane, layout, events, sides, pal }: LaneProps & { lane: 'client' | 'server' }) {
  const { axis, n, ongoing, inPlot } = layout;
  const { x } = axis;
  return sides.map((s, i) => {
    const x2raw = i + 1 < n ? x(i + 1) : ongoing ? axis.endX : x(i) + 16;
    const span = inPlot(x(i), x2raw);
    if (!span || (span[1] - span[0] < 0.5 && !axis.visible(i))) return null;
    const side = s[lane];
    return (
      <rect
        key={`${lane}-${i}`}
        x={span[0]}
        y={(lane === 'server' ? G.server : G.client) - G.laneH / 2}
        width={Math.max(2, span[1] - span[0])}
        height={G.laneH}
        fill={sideColor(side, pal)}
        opacity={side === 'closed' ? 0.35 : 0.85}
      >
        <title>{`${lane}: ${SIDE_LABELS[side]} after ${events[i].type}`}</title>
      </rect>
    );
  });
}

function OngoingOutline({ layout, pal }: { layout: TimelineLayout; pal: Palette }) {
  const span = layout.inPlot(layout.axis.x(layout.n - 1), layout.axis.endX);
  if (!span) return null;
  return (
    <g>
      {(['server', 'client'] as const).map((lane) => (
        <rect
          key={lane}
          x={span[0]}
          y={(lane === 'server' ? G.server : G.client) - G.laneH / 2}
          width={Math.max(2, span[1] - span[0])}
          height={G.laneH}
          fill="none"
          stroke={pal.deadlock}
          strokeDasharray="4 3"
        />
      ))}
    </g>
  );
}

export function TimelineLanes(props: LaneProps) {
  const { layout } = props;
  return (
    <>
      <text x={8} y={G.server + 4} className="lane-label">
        Server
      </text>
      <text x={8} y={G.client + 4} className="lane-label">
        Client
      </text>
      <line x1={layout.left} x2={layout.right} y1={G.axisLineY} y2={G.axisLineY} className="axis" />
      <LaneSegments lane="server" {...props} />
      <LaneSegments lane="client" {...props} />
      {layout.ongoing && <OngoingOutline layout={layout} pal={props.pal} />}
    </>
  );
}
