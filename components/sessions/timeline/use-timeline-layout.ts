'use client';
// Where everything on the timeline goes: the measured width and text metrics, the axis over the
// (zoomed) session, the key events, the deadlock or refusal bracket and the label plan. The parts
// (lanes, events, chips, toolbar) only draw what this hook decides.
import { useEffect, useMemo, useRef, useState } from 'react';
import { fmtDuration, fmtLatency, fmtTime } from '@/lib/ui/format';
import { estimateWidth, type MeasureText } from '@/lib/ui/label-layout';
import { buildAxis, clampZoom, doorWindow, type ZoomWindow } from '@/lib/ui/timeline-axis';
import { planTimelineLabels } from '@/lib/ui/timeline-labels';
import { LEFT_NARROW, LEFT_WIDE, RIGHT, eventNumber, keyEvents, shortName, type TimelineProps } from './timeline-parts';

/** The browser's own text metrics (the system font varies by machine) and the real width; an
 *  estimate and 1000 px on the server. `ready` tells tests the layout they measure is the final one. */
export function useMeasuredPlot() {
  const wrapRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1000);
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
  return { wrapRef, width, measure, ready };
}

/** `width` and `measure`: the plot's measured width and text metrics (useMeasuredPlot). */
export function useTimelineLayout(
  { events, sides, session, nowMs, tz, spacing, zoom: askedZoom }: TimelineProps,
  width: number,
  measure: MeasureText,
) {
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

  const keys = keyEvents(events, sides);
  const { doorIdx, boundaryIdx, answerIdx, resumeIdx } = keys;
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
    ? `${deadlock.ongoing ? 'deadlocked for ' : deadlock.endUnreported ? 'deadlock ≥ ' : 'deadlock '}${fmtDuration(deadlock.durationMs)}`
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

  return {
    width,
    ts,
    n,
    ongoing,
    extent,
    zoom,
    zoomOutside: clamped.outside,
    left,
    right,
    axis,
    keys,
    doorZoom,
    num,
    inPlot,
    /** The deadlock's span, else the refusal's (null when neither is in view); `deadlock` says which. */
    bracket: bracketSpan ? { span: bracketSpan, deadlock: dlSpan !== null } : null,
    plan,
  };
}

export type TimelineLayout = ReturnType<typeof useTimelineLayout>;
