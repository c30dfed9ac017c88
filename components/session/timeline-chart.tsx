'use client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useEffectiveTheme } from '@/components/shell/theme';
import type { TTimelineEvent } from '@/lib/contract/api/session-detail';
import type { TSessionView } from '@/lib/contract/api/sessions';
import { fmtDuration, fmtLatency, fmtTime, type TimeZoneMode } from '@/lib/ui/format';
import { estimateWidth, layoutLabels, type MeasureText } from '@/lib/ui/label-layout';
import { PALETTES } from '@/lib/ui/palette';
import { SIDE_LABELS, type Side, type SideStep } from '@/lib/ui/sides';

export type Spacing = 'time' | 'sequence';

interface Props {
  events: TTimelineEvent[];
  sides: SideStep[];
  session: TSessionView;
  nowMs: number;
  tz: TimeZoneMode;
  spacing: Spacing;
  selected: number | null;
  onSelect: (i: number) => void;
}

/** Room for the lane names: less on a phone, where every pixel of the plot counts. */
const LEFT_WIDE = 92;
const LEFT_NARROW = 58;
/** Event labels stack upwards in up to this many rows above the ticks; the rest give way. */
const LABEL_ROWS = 3;
const ROW_H = 14;
/** Font sizes of the event names (.ev-label in globals.css) and of the notes under them. */
const LABEL_PX = 11.5;
const NOTE_PX = 10;
const RIGHT = 28;
const Y_LABEL = 46;
const Y_SERVER = 112;
const Y_CLIENT = 158;
const LANE_H = 14;
const HEIGHT = 254;

const SHORT: Record<string, string> = {
  'session.opened': 'opened',
  'upgrade.accepted': 'upgrade.accepted',
  'upgrade.completed': 'upgrade.completed',
  'upgrade.rejected': 'upgrade.rejected',
  'stream.dropped': 'dropped',
  'resume.requested': 'resume.requested',
  'resume.refused': 'resume.refused',
  'resume.accepted': 'resume.accepted',
  'session.timeout': 'timeout',
  'session.closed': 'closed',
};

/** Picks even spacing when linear time would crush events together (e.g. a 50 ms refusal next to a 300 s deadlock). */
export function autoSpacing(events: TTimelineEvent[], endMs: number): Spacing {
  if (events.length < 3) return 'time';
  const ts = events.map((e) => Date.parse(e.at));
  const span = Math.max(endMs, ts[ts.length - 1]) - ts[0];
  if (span <= 0) return 'sequence';
  let minGap = Infinity;
  for (let i = 1; i < ts.length; i++) minGap = Math.min(minGap, ts[i] - ts[i - 1]);
  // Labels need ~90 px: if two neighbours would be closer than that on a ~1100 px axis, space evenly.
  return minGap / span < 0.08 ? 'sequence' : 'time';
}

function sideColor(side: Side, pal: (typeof PALETTES)['light']): string {
  return side === 'sse' ? pal.sse : side === 'ws' ? pal.ws : side === 'burned' ? pal.burned : pal.drops;
}

export function TimelineChart({ events, sides, session, nowMs, tz, spacing, selected, onSelect }: Props) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1000);
  const theme = useEffectiveTheme();
  const pal = PALETTES[theme];

  useEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.max(320, el.clientWidth)));
    ro.observe(el);
    setWidth(Math.max(320, el.clientWidth));
    return () => ro.disconnect();
  }, []);

  const LEFT = width < 600 ? LEFT_NARROW : LEFT_WIDE;
  // The browser's own text metrics (the system font varies by machine); an estimate before mount.
  const [measure, setMeasure] = useState<MeasureText>(() => estimateWidth);
  useEffect(() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const el = wrapRef.current;
    if (!ctx || !el) return;
    const family = getComputedStyle(el).fontFamily;
    setMeasure(() => (text: string, px: number, bold: boolean) => {
      ctx.font = `${bold ? 600 : 400} ${px}px ${family}`;
      return Math.ceil(ctx.measureText(text).width) + 2;
    });
  }, []);
  const ts = useMemo(() => events.map((e) => Date.parse(e.at)), [events]);
  const ongoing = session.deadlock?.ongoing ?? false;
  const endMs = ongoing ? nowMs : ts[ts.length - 1];
  const startMs = ts[0];
  const plotW = width - LEFT - RIGHT;
  const n = events.length;
  // Trailing slot for an ongoing deadlock (up to "now").
  const slots = n + (ongoing ? 1 : 0);

  const x = (i: number): number => {
    if (spacing === 'sequence') return LEFT + (slots <= 1 ? plotW / 2 : (i / (slots - 1)) * plotW);
    const span = Math.max(endMs - startMs, 1);
    const t = i >= n ? endMs : ts[i];
    return LEFT + ((t - startMs) / span) * plotW;
  };
  const xAt = (ms: number): number => {
    if (spacing === 'time') {
      const span = Math.max(endMs - startMs, 1);
      return LEFT + ((ms - startMs) / span) * plotW;
    }
    // sequence: position of the event with that time (or "now" for an ongoing end)
    if (ms >= endMs && ongoing) return x(n);
    let idx = ts.findIndex((t) => t >= ms);
    if (idx < 0) idx = n - 1;
    return x(idx);
  };

  const doorIdx = sides.findIndex((s) => s.door);
  const boundaryMs = session.boundaryAt ? Date.parse(session.boundaryAt) : null;
  const answeredMs = session.answeredAt ? Date.parse(session.answeredAt) : null;
  const boundaryIdx = boundaryMs === null ? -1 : events.findIndex((e, i) => e.type === 'resume.requested' && ts[i] === boundaryMs);
  const answerIdx =
    answeredMs === null
      ? -1
      : events.findIndex((e, i) => (e.type === 'resume.refused' || e.type === 'resume.accepted') && ts[i] === answeredMs);
  /** One numbering on the page: the table's # (the reporter's seq, else the row). */
  const num = (i: number) => events[i].seq ?? i + 1;
  const doorSseId = doorIdx >= 0 ? events[doorIdx].data.eventId : undefined;
  // Labels never print over each other: event names stack in rows above the ticks (the door, the
  // boundary entry and its answer first); the notes under them share a band of their own.
  const labels = layoutLabels(
    events.map((e, i) => ({
      x: x(i),
      text: SHORT[e.type] ?? e.type,
      fontSize: LABEL_PX,
      important: i === boundaryIdx || i === answerIdx || sides[i].door,
      bold: i === boundaryIdx || i === answerIdx || sides[i].door,
    })),
    { rows: LABEL_ROWS, gap: 6, minX: 4, maxX: width - 4 },
    measure,
  );
  const noteText = (i: number): string | null =>
    i === boundaryIdx
      ? 'boundary entry'
      : i === answerIdx
        ? events[i].type === 'resume.refused'
          ? 'session-superseded'
          : 'naive resume'
        : sides[i].door
          ? `the door · #${num(i)}${typeof doorSseId === 'number' || typeof doorSseId === 'string' ? ` · SSE id ${doorSseId}` : ''}`
          : null;
  const noteIdx = events.map((_, i) => i).filter((i) => noteText(i) !== null);
  const notes = new Map(
    layoutLabels(
      noteIdx.map((i) => ({ x: x(i), text: noteText(i)!, fontSize: NOTE_PX, important: true, bold: true })),
      // Three rows: on linear time the door, the boundary entry and its answer can share one x.
      { rows: 3, gap: 6, minX: 4, maxX: width - 4 },
      measure,
    ).map((p, k) => [noteIdx[k], p]),
  );
  // Gaps between neighbours (even spacing): shown where they fit, one row.
  const gaps = layoutLabels(
    ts.slice(1).map((t, k) => ({ x: (x(k) + x(k + 1)) / 2, text: `+${fmtDuration(t - ts[k])}`, fontSize: NOTE_PX })),
    // Clear of the "now" at the end of an ongoing deadlock.
    { rows: 1, gap: 4, minX: LEFT, maxX: ongoing ? x(n) - 34 : width - RIGHT },
    measure,
  );

  // Lane segments: from event i to i+1, coloured by the side after event i.
  const segs = (lane: 'client' | 'server') =>
    sides.map((s, i) => {
      const x1 = x(i);
      const x2 = i + 1 < slots ? x(i + 1) : x1 + 16;
      const side = s[lane];
      return (
        <rect
          key={`${lane}-${i}`}
          x={x1}
          y={(lane === 'server' ? Y_SERVER : Y_CLIENT) - LANE_H / 2}
          width={Math.max(2, x2 - x1)}
          height={LANE_H}
          fill={sideColor(side, pal)}
          opacity={side === 'closed' ? 0.35 : 0.85}
        >
          <title>{`${lane}: ${SIDE_LABELS[side]} after ${events[i].type}`}</title>
        </rect>
      );
    });

  const deadlock = session.deadlock;
  const dlX1 = deadlock ? xAt(Date.parse(deadlock.startedAt)) : 0;
  const dlX2 = deadlock ? (deadlock.endedAt ? xAt(Date.parse(deadlock.endedAt)) : x(n)) : 0;

  return (
    <div ref={wrapRef} style={{ width: '100%' }}>
      <svg
        className="timeline-svg"
        width={width}
        height={HEIGHT}
        fill={pal.muted}
        fontSize={11}
        role="img"
        aria-label={`Timeline of ${n} events for token ${session.token}`}
        data-testid="timeline-svg"
      >
        {/* lanes */}
        <text x={8} y={Y_SERVER + 4} className="lane-label">
          Server
        </text>
        <text x={8} y={Y_CLIENT + 4} className="lane-label">
          Client
        </text>
        <line x1={LEFT} x2={width - RIGHT} y1={Y_CLIENT + 40} y2={Y_CLIENT + 40} className="axis" />
        {segs('server')}
        {segs('client')}
        {ongoing && (
          <g>
            {(['server', 'client'] as const).map((lane) => (
              <rect
                key={lane}
                x={x(n - 1)}
                y={(lane === 'server' ? Y_SERVER : Y_CLIENT) - LANE_H / 2}
                width={Math.max(2, x(n) - x(n - 1))}
                height={LANE_H}
                fill="none"
                stroke={pal.deadlock}
                strokeDasharray="4 3"
              />
            ))}
            <text x={x(n)} y={Y_CLIENT + 56} textAnchor="end" fill={pal.deadlock}>
              now
            </text>
          </g>
        )}

        {/* deadlock bracket */}
        {deadlock && (
          <g data-testid="deadlock-bracket">
            <line x1={dlX1} x2={dlX2} y1={Y_CLIENT + 24} y2={Y_CLIENT + 24} stroke={pal.deadlock} strokeWidth={2} />
            <line x1={dlX1} x2={dlX1} y1={Y_CLIENT + 18} y2={Y_CLIENT + 30} stroke={pal.deadlock} strokeWidth={2} />
            <line x1={dlX2} x2={dlX2} y1={Y_CLIENT + 18} y2={Y_CLIENT + 30} stroke={pal.deadlock} strokeWidth={2} />
            <text x={(dlX1 + dlX2) / 2} y={Y_CLIENT + 38} textAnchor="middle" fill={pal.deadlock} fontWeight={600}>
              {deadlock.ongoing ? 'deadlocked for ' : 'deadlock '}
              {fmtDuration(deadlock.durationMs)}
            </text>
          </g>
        )}

        {/* refusal latency bracket */}
        {boundaryIdx >= 0 && answerIdx >= 0 && session.refusalLatencyMs !== null && (
          <g data-testid="refusal-bracket">
            <line x1={x(boundaryIdx)} x2={x(answerIdx)} y1={Y_CLIENT + 24} y2={Y_CLIENT + 24} stroke={pal.refused} strokeWidth={2} />
            <line x1={x(boundaryIdx)} x2={x(boundaryIdx)} y1={Y_CLIENT + 18} y2={Y_CLIENT + 30} stroke={pal.refused} strokeWidth={2} />
            <line x1={x(answerIdx)} x2={x(answerIdx)} y1={Y_CLIENT + 18} y2={Y_CLIENT + 30} stroke={pal.refused} strokeWidth={2} />
            <text x={(x(boundaryIdx) + x(answerIdx)) / 2} y={Y_CLIENT + 38} textAnchor="middle" fill={pal.refused} fontWeight={600}>
              refused in {fmtLatency(session.refusalLatencyMs)}
            </text>
          </g>
        )}

        {/* the door */}
        {doorIdx >= 0 && (
          <g data-testid="door-marker">
            <line x1={x(doorIdx)} x2={x(doorIdx)} y1={Y_LABEL + 14} y2={Y_CLIENT + 14} className="door" />
          </g>
        )}

        {/* gap annotations (sequence spacing) */}
        {spacing === 'sequence' &&
          gaps.map((g, k) =>
            g.row < 0 ? null : (
              <text
                key={`gap-${k}`}
                x={g.x}
                y={Y_CLIENT + (deadlock || session.refusalLatencyMs !== null ? 62 : 30)}
                fontSize={NOTE_PX}
                className="gap-label"
                data-testid="timeline-gap"
              >
                +{fmtDuration(ts[k + 1] - ts[k])}
              </text>
            ),
          )}

        {/* events */}
        {events.map((e, i) => {
          const cx = x(i);
          const s = sides[i];
          const isBoundary = i === boundaryIdx;
          const isAnswer = i === answerIdx;
          const colour =
            e.type === 'resume.refused'
              ? pal.refused
              : e.type === 'resume.accepted' && isAnswer
                ? pal.naive
                : e.type === 'upgrade.rejected' || s.dual
                  ? pal.dual
                  : s.door
                    ? pal.pending
                    : pal.muted;
          return (
            <g key={e.id} data-testid="timeline-event" data-type={e.type}>
              <line x1={cx} x2={cx} y1={Y_LABEL + 4} y2={Y_CLIENT + LANE_H / 2} stroke={pal.axis} strokeWidth={1} opacity={0.7} />
              {labels[i].row >= 0 && (
                <text
                  x={labels[i].x}
                  y={Y_LABEL - 4 - labels[i].row * ROW_H}
                  className="ev-label"
                  data-testid="timeline-label"
                  fontWeight={isBoundary || isAnswer || s.door ? 600 : 400}
                >
                  {SHORT[e.type] ?? e.type}
                </text>
              )}
              {notes.get(i) && notes.get(i)!.row >= 0 && (
                <text
                  x={notes.get(i)!.x}
                  y={Y_LABEL + 12 + notes.get(i)!.row * (NOTE_PX + 3)}
                  fontSize={NOTE_PX}
                  fill={isBoundary ? pal.pending : s.door && !isAnswer ? undefined : colour}
                  className={s.door && !isBoundary && !isAnswer ? 'door-label' : undefined}
                  data-testid="timeline-label"
                  fontWeight={600}
                >
                  {noteText(i)}
                </text>
              )}
              <circle
                cx={cx}
                cy={Y_SERVER - LANE_H / 2 - 10}
                r={selected === i ? 7 : 5.5}
                fill={colour}
                className="ev-dot"
                tabIndex={0}
                role="button"
                aria-label={`${e.type} at ${fmtTime(e.at, tz)}`}
                onClick={() => onSelect(i)}
                onKeyDown={(ev) => {
                  if (ev.key === 'Enter' || ev.key === ' ') {
                    ev.preventDefault();
                    onSelect(i);
                  }
                }}
              >
                <title>{`${e.type} · ${fmtTime(e.at, tz)} · client ${SIDE_LABELS[s.client]}, server ${SIDE_LABELS[s.server]}`}</title>
              </circle>
              {s.disagree && (
                <text x={cx + 4} y={(Y_SERVER + Y_CLIENT) / 2 + 4} fontSize={13} fill={pal.deadlock} fontWeight={700}>
                  ≠
                </text>
              )}
            </g>
          );
        })}

        {/* axis ticks: first and last time */}
        <text x={LEFT} y={HEIGHT - 6} textAnchor="start">
          {fmtTime(startMs, tz)}
        </text>
        <text x={width - RIGHT} y={HEIGHT - 6} textAnchor="end">
          {ongoing ? `now · ${fmtTime(endMs, tz)}` : fmtTime(endMs, tz)}
        </text>
        <text x={(LEFT + width - RIGHT) / 2} y={HEIGHT - 6} textAnchor="middle">
          {spacing === 'time'
            ? `linear time · span ${fmtDuration(endMs - startMs)}`
            : `evenly spaced · +Δ = gap to the previous event · span ${fmtDuration(endMs - startMs)}`}
        </text>
      </svg>
    </div>
  );
}

export function SideLegend() {
  const theme = useEffectiveTheme();
  const pal = PALETTES[theme];
  const items: [string, string][] = [
    [pal.sse, 'SSE side'],
    [pal.ws, 'WebSocket side (past the door)'],
    [pal.burned, 'burned token'],
    [pal.drops, 'closed'],
  ];
  return (
    <div className="legend">
      {items.map(([c, l]) => (
        <span key={l}>
          <span className="swatch" style={{ background: c }} />
          {l}
        </span>
      ))}
      <span>
        <span style={{ color: pal.pending, fontWeight: 700 }}>┆</span> door = upgrade.accepted
      </span>
      <span>
        <span style={{ color: pal.deadlock, fontWeight: 700 }}>≠</span> client and server disagree
      </span>
    </div>
  );
}
