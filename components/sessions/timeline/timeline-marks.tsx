'use client';
// What the plan places around the events: the deadlock or refusal bracket, the door's line, "now",
// the +Δ gaps of even spacing and the axis's two ends.
import { GEOMETRY as G } from '@/lib/ui/timeline-labels';
import type { Palette } from './timeline-parts';
import type { TimelineLayout } from './use-timeline-layout';

export function TimelineMarks({ layout, pal }: { layout: TimelineLayout; pal: Palette }) {
  const { bracket, plan, axis } = layout;
  const doorIdx = layout.keys.doorIdx;
  const tone = bracket?.deadlock ? pal.deadlock : pal.refused;
  return (
    <>
      {bracket && (
        <g data-testid={bracket.deadlock ? 'deadlock-bracket' : 'refusal-bracket'} stroke={tone} strokeWidth={2}>
          <line x1={bracket.span[0]} x2={bracket.span[1]} y1={G.bracketY} y2={G.bracketY} />
          <line x1={bracket.span[0]} x2={bracket.span[0]} y1={G.bracketY - 6} y2={G.bracketY + 6} />
          <line x1={bracket.span[1]} x2={bracket.span[1]} y1={G.bracketY - 6} y2={G.bracketY + 6} />
          {plan.bracket && (
            <text
              x={plan.bracket.x}
              y={plan.bracket.y}
              stroke="none"
              fill={tone}
              fontWeight={600}
              data-testid="timeline-text"
              data-part="bracket"
            >
              {plan.bracket.text}
            </text>
          )}
        </g>
      )}

      {doorIdx >= 0 && axis.visible(doorIdx) && (
        <line
          x1={axis.x(doorIdx)}
          x2={axis.x(doorIdx)}
          y1={(plan.notes[doorIdx]?.y ?? G.nameY) + 4}
          y2={G.client + G.laneH}
          className="door"
          data-testid="door-marker"
        />
      )}

      {plan.now && (
        <text x={plan.now.x} y={plan.now.y} fill={pal.deadlock} data-testid="timeline-text">
          now
        </text>
      )}
      {plan.gaps.map(
        (g, k) =>
          g && (
            <text key={`gap-${k}`} x={g.x} y={g.y} fontSize={g.fontSize} className="gap-label" data-testid="timeline-gap">
              {g.text}
            </text>
          ),
      )}
    </>
  );
}

export function AxisEnds({ plan }: { plan: TimelineLayout['plan'] }) {
  return (
    <>
      <text x={plan.axisStart.x} y={plan.axisStart.y} data-testid="timeline-text">
        {plan.axisStart.text}
      </text>
      <text x={plan.axisEnd.x} y={plan.axisEnd.y} data-testid="timeline-text" data-part="axis-end">
        {plan.axisEnd.text}
      </text>
    </>
  );
}
