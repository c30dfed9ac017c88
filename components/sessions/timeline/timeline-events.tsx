'use client';
// The events in view: a dot each (click or Enter selects it), its name, the note of a key event
// (the door, the boundary entry, its answer) and ≠ where client and server first disagree.
import type { TTimelineEvent } from '@/lib/contract/api/session-detail';
import { fmtTime, type TimeZoneMode } from '@/lib/ui/format';
import type { SideStep } from '@/lib/boundary/sides';
import { SIDE_LABELS } from '@/lib/ui/sides';
import { GEOMETRY as G } from '@/lib/ui/timeline-labels';
import type { Palette } from './timeline-parts';
import type { TimelineLayout } from './use-timeline-layout';

interface EventsProps {
  layout: TimelineLayout;
  events: TTimelineEvent[];
  sides: SideStep[];
  pal: Palette;
  tz: TimeZoneMode;
  selected: number | null;
  onSelect: (i: number) => void;
}

export function TimelineEvents({ layout, events, sides, pal, tz, selected, onSelect }: EventsProps) {
  const { axis, plan, num } = layout;
  const { boundaryIdx, answerIdx } = layout.keys;
  return axis.shown.map((i) => {
    const e = events[i];
    const cx = axis.x(i);
    const s = sides[i];
    const isBoundary = i === boundaryIdx;
    const isAnswer = i === answerIdx;
    // Only the resume that answered the boundary naively is red; ordinary resumes are not.
    const colour = s.refusedAnswer
      ? pal.refused
      : s.naiveAnswer
        ? pal.naive
        : e.type === 'upgrade.rejected' || s.dual
          ? pal.dual
          : s.door
            ? pal.pending
            : pal.muted;
    const name = plan.names[i];
    const note = plan.notes[i];
    const mark = plan.marks[i];
    return (
      <g key={e.id} data-testid="timeline-event" data-type={e.type} data-num={num(i)}>
        <line x1={cx} x2={cx} y1={(note?.y ?? G.nameY) + 4} y2={G.client + G.laneH / 2} stroke={pal.axis} strokeWidth={1} opacity={0.7} />
        {name && (
          <text x={name.x} y={name.y} className="ev-label" data-testid="timeline-label" fontWeight={name.bold ? 600 : 400}>
            {name.text}
          </text>
        )}
        {note && (
          <text
            x={note.x}
            y={note.y}
            fontSize={note.fontSize}
            fill={isBoundary ? pal.pendingText : s.door && !isAnswer ? undefined : colour}
            className={s.door && !isBoundary && !isAnswer ? 'door-label' : undefined}
            data-testid="timeline-label"
            fontWeight={600}
          >
            {note.text}
          </text>
        )}
        <circle
          cx={cx}
          cy={G.dotY}
          r={selected === i ? 7 : 5.5}
          fill={colour}
          data-tone={s.refusedAnswer ? 'refused' : s.naiveAnswer ? 'naive' : s.door ? 'door' : 'plain'}
          className="ev-dot"
          tabIndex={0}
          role="button"
          aria-label={`#${num(i)} ${e.type} at ${fmtTime(e.at, tz)}`}
          onClick={() => onSelect(i)}
          onKeyDown={(ev) => {
            if (ev.key === 'Enter' || ev.key === ' ') {
              ev.preventDefault();
              onSelect(i);
            }
          }}
        >
          <title>{`#${num(i)} ${e.type} · ${fmtTime(e.at, tz)} · client ${SIDE_LABELS[s.client]}, server ${SIDE_LABELS[s.server]}`}</title>
        </circle>
        {mark && (
          <text x={mark.x} y={mark.y} fontSize={mark.fontSize} fill={pal.deadlock} fontWeight={700} data-testid="timeline-text">
            ≠
          </text>
        )}
      </g>
    );
  });
}
