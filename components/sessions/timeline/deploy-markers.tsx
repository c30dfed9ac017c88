'use client';
// Annotations (deploy notes) and first-reported versions that fall inside the shown window, as
// vertical lines across the lanes at their moment (axis.xAt: exact in linear time, between the
// neighbouring events when evenly spaced), like the overview charts' markers: annotations dashed
// in the axis colour, versions dotted and muted. The text is React text (escaped); the whole of it
// is the line's tooltip, a short form its label.
import type { ChartMarker } from '@/lib/ui/chart-markers';
import type { Axis } from '@/lib/ui/timeline-axis';
import { GEOMETRY as G } from '@/lib/ui/timeline-labels';
import type { Palette } from './timeline-parts';

const TOP = 12;

export function DeployMarkers({ axis, markers, pal }: { axis: Axis; markers: readonly ChartMarker[]; pal: Palette }) {
  const shown = markers.filter((m) => m.at >= axis.domain.fromMs && m.at <= axis.domain.toMs);
  return (
    <>
      {shown.map((m) => {
        const x = axis.xAt(m.at);
        const color = m.kind === 'annotation' ? pal.axis : pal.muted;
        return (
          <g key={m.key} data-testid="timeline-marker" data-marker-kind={m.kind} stroke={color} fill={color}>
            <title>{m.title}</title>
            <line x1={x} x2={x} y1={TOP + 4} y2={G.client + G.laneH} strokeDasharray={m.kind === 'annotation' ? '4 3' : '1 3'} />
            <text x={x + 3} y={TOP + 8} stroke="none" fontSize={G.noteFont} textAnchor={x > axis.right - 120 ? 'end' : 'start'}>
              {m.label}
            </text>
          </g>
        );
      })}
    </>
  );
}
