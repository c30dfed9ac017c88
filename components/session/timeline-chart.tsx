'use client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useEffectiveTheme } from '@/components/shell/theme';
import type { TTimelineEvent } from '@/lib/contract/api/session-detail';
import type { TSessionView } from '@/lib/contract/api/sessions';
import { fmtDuration, fmtTime, type TimeZoneMode } from '@/lib/ui/format';
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

const LEFT = 92;
const RIGHT = 28;
const Y_LABEL = 40;
const Y_SERVER = 104;
const Y_CLIENT = 150;
const LANE_H = 14;
const HEIGHT = 246;

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
    const ro = new ResizeObserver(() => setWidth(Math.max(480, el.clientWidth)));
    ro.observe(el);
    setWidth(Math.max(480, el.clientWidth));
    return () => ro.disconnect();
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
  const labelEvery = Math.max(1, Math.ceil((n * 96) / plotW));

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
              refused in {fmtDuration(session.refusalLatencyMs)}
            </text>
          </g>
        )}

        {/* the door */}
        {doorIdx >= 0 && (
          <g data-testid="door-marker">
            <line x1={x(doorIdx)} x2={x(doorIdx)} y1={Y_LABEL + 14} y2={Y_CLIENT + 14} className="door" />
            <text x={x(doorIdx) + 5} y={Y_LABEL + 24} className="door-label">
              the door{typeof events[doorIdx].data.eventId === 'number' ? ` (event ${events[doorIdx].data.eventId})` : ''}
            </text>
          </g>
        )}

        {/* gap annotations (sequence spacing) */}
        {spacing === 'sequence' &&
          ts.slice(1).map((t, k) => {
            const gap = t - ts[k];
            const mid = (x(k) + x(k + 1)) / 2;
            return (
              <text
                key={`gap-${k}`}
                x={mid}
                y={Y_CLIENT + (deadlock || session.refusalLatencyMs !== null ? 62 : 30)}
                textAnchor="middle"
                fontSize={10}
              >
                +{fmtDuration(gap)}
              </text>
            );
          })}

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
              {(i % labelEvery === 0 || isBoundary || isAnswer || s.door) && (
                <text
                  x={cx}
                  y={Y_LABEL - 4}
                  className="ev-label"
                  textAnchor={i === 0 ? 'start' : i === n - 1 && !ongoing ? 'end' : 'middle'}
                  fontWeight={isBoundary || isAnswer || s.door ? 600 : 400}
                >
                  {SHORT[e.type] ?? e.type}
                </text>
              )}
              {(isBoundary || isAnswer) && (
                <text
                  x={cx}
                  y={Y_LABEL + 10}
                  textAnchor={i === n - 1 && !ongoing ? 'end' : 'middle'}
                  fontSize={10}
                  fill={isBoundary ? pal.pending : colour}
                  fontWeight={600}
                >
                  {isBoundary ? 'boundary entry' : e.type === 'resume.refused' ? 'session-superseded' : 'naive resume'}
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
            : `events evenly spaced · span ${fmtDuration(endMs - startMs)}`}
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
