'use client';
import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useEffectiveTheme } from '@/components/shell/theme';
import type { TTimelineEvent } from '@/lib/contract/api/session-detail';
import type { TSessionView } from '@/lib/contract/api/sessions';
import { fmtDuration, fmtLatency, fmtTime, type TimeZoneMode } from '@/lib/ui/format';
import { estimateWidth, type MeasureText } from '@/lib/ui/label-layout';
import { PALETTES } from '@/lib/ui/palette';
import { SIDE_LABELS, type Side, type SideStep } from '@/lib/ui/sides';
import { buildAxis, clampZoom, doorWindow, windowAround, zoomOut, type Spacing, type ZoomWindow } from '@/lib/ui/timeline-axis';
import { GEOMETRY as G, planTimelineLabels } from '@/lib/ui/timeline-labels';

interface Props {
  events: TTimelineEvent[];
  sides: SideStep[];
  session: TSessionView;
  nowMs: number;
  tz: TimeZoneMode;
  spacing: Spacing;
  /** The zoom the URL asks for (not yet limited to this session). */
  zoom: ZoomWindow | null;
  onZoom: (z: ZoomWindow | null) => void;
  selected: number | null;
  onSelect: (i: number) => void;
}

/** Room for the lane names: less on a phone, where every pixel of the plot counts. */
const LEFT_WIDE = 92;
const LEFT_NARROW = 58;
const RIGHT = 28;
/** A drag shorter than this is a click, not a brush. */
const BRUSH_MIN_PX = 6;

const SHORT: Record<string, string> = {
  'session.opened': 'opened',
  'stream.dropped': 'dropped',
  'session.timeout': 'timeout',
  'session.closed': 'closed',
};
const shortName = (type: string) => SHORT[type] ?? type;

function sideColor(side: Side, pal: (typeof PALETTES)['light']): string {
  return side === 'sse' ? pal.sse : side === 'ws' ? pal.ws : side === 'burned' ? pal.burned : pal.drops;
}

/** One numbering on the page: the table's # (the reporter's seq, else the row). */
export const eventNumber = (events: readonly TTimelineEvent[], i: number) => events[i].seq ?? i + 1;

/** The door, the boundary entry and the answer to it, as the boundary fold marks them. */
export function keyEvents(events: readonly TTimelineEvent[], sides: readonly SideStep[]) {
  const doorIdx = sides.findIndex((s) => s.door);
  const boundaryIdx = sides.findIndex((s) => s.boundaryEntry);
  const answerIdx = sides.findIndex((s) => s.naiveAnswer || s.refusedAnswer);
  // The resume at the door: the answer, else the entry, else the first resume after the door.
  const resumeIdx =
    answerIdx >= 0
      ? answerIdx
      : boundaryIdx >= 0
        ? boundaryIdx
        : events.findIndex((e, i) => i > doorIdx && doorIdx >= 0 && e.type.startsWith('resume.'));
  return { doorIdx, boundaryIdx, answerIdx, resumeIdx };
}

export function TimelineChart({ events, sides, session, nowMs, tz, spacing, zoom: askedZoom, onZoom, selected, onSelect }: Props) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(1000);
  const theme = useEffectiveTheme();
  const pal = PALETTES[theme];

  // The browser's own text metrics (the system font varies by machine) and the real width; an
  // estimate and 1000 px on the server. `ready` tells tests the layout they measure is the final one.
  const [measure, setMeasure] = useState<MeasureText>(() => estimateWidth);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const ctx = document.createElement('canvas').getContext('2d');
    if (ctx) {
      const family = getComputedStyle(el).fontFamily;
      setMeasure(() => (text: string, px: number, bold: boolean) => {
        ctx.font = `${bold ? 600 : 400} ${px}px ${family}`;
        return Math.ceil(ctx.measureText(text).width) + 2;
      });
    }
    const ro = new ResizeObserver(() => setWidth(Math.max(320, el.clientWidth)));
    ro.observe(el);
    setWidth(Math.max(320, el.clientWidth));
    setReady(true);
    return () => ro.disconnect();
  }, []);

  const [brush, setBrush] = useState<{ x0: number; x1: number } | null>(null);
  /** The open "+N" chip, by the id of an event it holds (chips regroup when the width changes). */
  const [openChip, setOpenChip] = useState<string | null>(null);

  const ts = useMemo(() => events.map((e) => Date.parse(e.at)), [events]);
  const n = events.length;
  const ongoing = session.deadlock?.ongoing ?? false;
  const endMs = ongoing ? Math.max(nowMs, ts[n - 1]) : ts[n - 1];
  const extent: ZoomWindow = { fromMs: ts[0], toMs: endMs };
  const clamped = askedZoom ? clampZoom(askedZoom, extent) : { zoom: null, outside: false };
  const zoom = clamped.zoom;

  const left = width < 600 ? LEFT_NARROW : LEFT_WIDE;
  const right = width - RIGHT;
  const axis = buildAxis({ times: ts, endMs, ongoing, spacing, zoom, left, right });
  const { x } = axis;

  const { doorIdx, boundaryIdx, answerIdx, resumeIdx } = keyEvents(events, sides);
  const doorZoom = doorWindow(ts, doorIdx, resumeIdx, extent);
  const num = (i: number) => eventNumber(events, i);
  const doorSseId = doorIdx >= 0 ? events[doorIdx].data.eventId : undefined;

  const noteText = (i: number): string | null =>
    i === boundaryIdx
      ? 'boundary entry'
      : i === answerIdx
        ? events[i].type === 'resume.refused'
          ? 'session-superseded'
          : 'naive resume'
        : i === doorIdx
          ? `the door · #${num(i)}${typeof doorSseId === 'number' || typeof doorSseId === 'string' ? ` · SSE id ${doorSseId}` : ''}`
          : null;

  /** The part of [a, b] inside the plot, or null when none is. */
  const inPlot = (a: number, b: number): [number, number] | null => {
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    if (hi < left || lo > right) return null;
    return [axis.clip(lo), axis.clip(hi)];
  };

  const deadlock = session.deadlock;
  const dlSpan = deadlock
    ? inPlot(axis.xAt(Date.parse(deadlock.startedAt)), deadlock.endedAt ? axis.xAt(Date.parse(deadlock.endedAt)) : axis.endX)
    : null;
  const refusalSpan =
    boundaryIdx >= 0 && answerIdx >= 0 && session.refusalLatencyMs !== null && events[answerIdx].type === 'resume.refused'
      ? inPlot(x(boundaryIdx), x(answerIdx))
      : null;
  const bracketText = deadlock
    ? `${deadlock.ongoing ? 'deadlocked for ' : 'deadlock '}${fmtDuration(deadlock.durationMs)}`
    : `refused in ${fmtLatency(session.refusalLatencyMs)}`;
  const bracketSpan = dlSpan ?? refusalSpan;

  const shown = axis.shown;
  const gaps =
    spacing === 'sequence'
      ? shown
          .slice(1)
          .map((i, k) => ({ x: (x(shown[k]) + x(i)) / 2, text: `+${fmtDuration(ts[i] - ts[shown[k]])}`, from: shown[k], to: i }))
      : [];

  const plan = planTimelineLabels(
    {
      width,
      left,
      right,
      events: events.map((e, i) => ({
        x: x(i),
        visible: axis.visible(i),
        name: shortName(e.type),
        important: i === boundaryIdx || i === answerIdx || i === doorIdx,
        note: noteText(i),
        mark: sides[i].disagree && !(i > 0 && sides[i - 1].disagree),
      })),
      gaps,
      bracket: bracketSpan ? { x1: bracketSpan[0], x2: bracketSpan[1], text: bracketText } : null,
      nowX: ongoing && axis.endVisible ? axis.endX : null,
      axis: {
        start: fmtTime(axis.domain.fromMs, tz),
        end: ongoing && axis.endVisible ? `now · ${fmtTime(axis.domain.toMs, tz)}` : fmtTime(axis.domain.toMs, tz),
      },
    },
    measure,
  );
  const open = openChip === null ? null : (plan.chips.find((c) => c.members.some((i) => events[i].id === openChip)) ?? null);
  // Null when these events span the whole view already.
  const openZoom = open && windowAround(ts[open.members[0]], ts[open.members[open.members.length - 1]], zoom ?? extent);

  // Lane segments: from event i to i+1, coloured by the side after event i, cut at the plot edges.
  const segs = (lane: 'client' | 'server') =>
    sides.map((s, i) => {
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

  // Brush: drag across the plot to zoom to that stretch (a click on a dot still selects it).
  const pxOf = (ev: ReactPointerEvent) => ev.clientX - (svgRef.current?.getBoundingClientRect().left ?? 0);
  const onPointerDown = (ev: ReactPointerEvent<SVGSVGElement>) => {
    if (ev.button !== 0 || (ev.target as Element).closest('.ev-dot')) return;
    const px = axis.clip(pxOf(ev));
    ev.currentTarget.setPointerCapture(ev.pointerId);
    setBrush({ x0: px, x1: px });
  };
  const onPointerMove = (ev: ReactPointerEvent<SVGSVGElement>) => {
    if (brush) setBrush({ ...brush, x1: axis.clip(pxOf(ev)) });
  };
  const onPointerUp = () => {
    if (!brush) return;
    setBrush(null);
    const [a, b] = [Math.min(brush.x0, brush.x1), Math.max(brush.x0, brush.x1)];
    if (b - a >= BRUSH_MIN_PX) onZoom({ fromMs: axis.invert(a), toMs: axis.invert(b) });
  };

  const total = extent.toMs - extent.fromMs;
  return (
    <div className="timeline">
      <div className="tl-toolbar" data-testid="timeline-toolbar">
        <button
          type="button"
          className="btn btn-xs"
          data-testid="zoom-door"
          disabled={!doorZoom}
          title={
            doorZoom
              ? 'From upgrade.accepted to the resume that came at it'
              : doorIdx >= 0
                ? 'The door already fills the chart'
                : 'No upgrade.accepted in this session'
          }
          onClick={() => doorZoom && onZoom(doorZoom)}
        >
          Zoom to the door
        </button>
        <button
          type="button"
          className="btn btn-xs"
          data-testid="zoom-out"
          disabled={!zoom}
          onClick={() => zoom && onZoom(zoomOut(zoom, extent))}
        >
          Zoom out
        </button>
        <button type="button" className="btn btn-xs" data-testid="zoom-reset" disabled={!zoom} onClick={() => onZoom(null)}>
          Reset
        </button>
        <span className="small muted" data-testid="zoom-status" aria-live="polite">
          {zoom
            ? `${fmtTime(zoom.fromMs, tz)} – ${fmtTime(zoom.toMs, tz)} · ${fmtDuration(zoom.toMs - zoom.fromMs)} of ${fmtDuration(total)} · ${shown.length} of ${n} events`
            : `Whole session · ${n} events · drag across the chart to zoom`}
        </span>
      </div>
      {clamped.outside && (
        <div className="notice small" role="status" data-testid="zoom-outside">
          The zoom in this link lies outside this session: showing all of it.{' '}
          <button type="button" className="btn btn-xs" onClick={() => onZoom(null)}>
            Clear the zoom
          </button>
        </div>
      )}
      <div ref={wrapRef} className="tl-plot">
        <svg
          ref={svgRef}
          className="timeline-svg"
          width={width}
          height={G.height}
          fill={pal.muted}
          fontSize={G.smallFont}
          role="img"
          aria-label={`Timeline of ${n} events for token ${session.token}${zoom ? `, ${shown.length} in the zoom window` : ''}`}
          data-testid="timeline-svg"
          data-spacing={spacing}
          data-ready={ready ? 'true' : undefined}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setBrush(null)}
        >
          <text x={8} y={G.server + 4} className="lane-label">
            Server
          </text>
          <text x={8} y={G.client + 4} className="lane-label">
            Client
          </text>
          <line x1={left} x2={right} y1={G.axisLineY} y2={G.axisLineY} className="axis" />
          {segs('server')}
          {segs('client')}
          {ongoing &&
            (() => {
              const span = inPlot(x(n - 1), axis.endX);
              return (
                span && (
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
                )
              );
            })()}

          {bracketSpan && (
            <g data-testid={dlSpan ? 'deadlock-bracket' : 'refusal-bracket'} stroke={dlSpan ? pal.deadlock : pal.refused} strokeWidth={2}>
              <line x1={bracketSpan[0]} x2={bracketSpan[1]} y1={G.bracketY} y2={G.bracketY} />
              <line x1={bracketSpan[0]} x2={bracketSpan[0]} y1={G.bracketY - 6} y2={G.bracketY + 6} />
              <line x1={bracketSpan[1]} x2={bracketSpan[1]} y1={G.bracketY - 6} y2={G.bracketY + 6} />
              {plan.bracket && (
                <text
                  x={plan.bracket.x}
                  y={plan.bracket.y}
                  stroke="none"
                  fill={dlSpan ? pal.deadlock : pal.refused}
                  fontWeight={600}
                  data-testid="timeline-text"
                >
                  {plan.bracket.text}
                </text>
              )}
            </g>
          )}

          {doorIdx >= 0 && axis.visible(doorIdx) && (
            <line
              x1={x(doorIdx)}
              x2={x(doorIdx)}
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

          {shown.map((i) => {
            const e = events[i];
            const cx = x(i);
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
                <line
                  x1={cx}
                  x2={cx}
                  y1={(note?.y ?? G.nameY) + 4}
                  y2={G.client + G.laneH / 2}
                  stroke={pal.axis}
                  strokeWidth={1}
                  opacity={0.7}
                />
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
                    fill={isBoundary ? pal.pending : s.door && !isAnswer ? undefined : colour}
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
          })}

          {brush && (
            <rect
              x={Math.min(brush.x0, brush.x1)}
              y={4}
              width={Math.abs(brush.x1 - brush.x0)}
              height={G.axisLineY - 4}
              className="tl-brush"
              data-testid="timeline-brush"
            />
          )}

          <text x={plan.axisStart.x} y={plan.axisStart.y} data-testid="timeline-text">
            {plan.axisStart.text}
          </text>
          <text x={plan.axisEnd.x} y={plan.axisEnd.y} data-testid="timeline-text">
            {plan.axisEnd.text}
          </text>
        </svg>
        {plan.chips.map((c) => {
          const key = events[c.members[0]].id;
          const isOpen = open === c;
          const names = c.members.map((i) => `#${num(i)} ${events[i].type}`).join(', ');
          return (
            <button
              key={key}
              type="button"
              className={`tl-chip${isOpen ? ' open' : ''}`}
              style={{ left: c.from, top: c.y, width: c.width, height: c.height }}
              aria-expanded={isOpen}
              aria-controls={isOpen ? 'tl-cluster' : undefined}
              aria-label={`${c.members.length} more events: ${names}`}
              title={names}
              data-testid="timeline-chip"
              onClick={() => setOpenChip(isOpen ? null : key)}
            >
              {c.text}
            </button>
          );
        })}
      </div>
      {open && (
        <div
          className="tl-cluster"
          id="tl-cluster"
          role="region"
          aria-label={`${open.members.length} events gathered under ${open.text}`}
          data-testid="cluster-list"
          onKeyDown={(ev) => {
            if (ev.key === 'Escape') setOpenChip(null);
          }}
        >
          <span className="small muted">
            {open.members.length} events close together, {fmtTime(ts[open.members[0]], tz)} –{' '}
            {fmtTime(ts[open.members[open.members.length - 1]], tz)}:
          </span>
          {open.members.map((i) => (
            <button
              key={events[i].id}
              type="button"
              className={`btn btn-xs${selected === i ? ' active' : ''}`}
              data-testid="cluster-event"
              onClick={() => onSelect(i)}
            >
              <span className="muted">#{num(i)}</span> {events[i].type}
            </button>
          ))}
          {openZoom && (
            <button
              type="button"
              className="btn btn-xs"
              data-testid="cluster-zoom"
              onClick={() => {
                setOpenChip(null);
                onZoom(openZoom);
              }}
            >
              Zoom to these
            </button>
          )}
        </div>
      )}
      <p className="small muted tl-caption" data-testid="timeline-caption">
        {spacing === 'time'
          ? 'Linear time: distance on the axis is time. Drag across the chart, or zoom to the door, to pull close events apart.'
          : 'Evenly spaced in order: the +Δ between two events is the gap from the previous one (the table’s “+Δ since first” is cumulative).'}
        {plan.chips.length > 0 && ' A “+N” chip holds N events too close to label: open it to list them.'}
      </p>
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
