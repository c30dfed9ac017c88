'use client';
// Brush: drag across the plot to zoom to that stretch (a click on a dot still selects it).
import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { ZoomWindow } from '@/lib/ui/timeline-axis';
import { GEOMETRY as G } from '@/lib/ui/timeline-labels';
import type { TimelineLayout } from './use-timeline-layout';

/** A drag shorter than this is a click, not a brush. */
const BRUSH_MIN_PX = 6;

type Brush = { x0: number; x1: number };

export function useBrush(axis: TimelineLayout['axis'], onZoom: (z: ZoomWindow) => void) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [brush, setBrush] = useState<Brush | null>(null);
  // The drag as the events say it, not as last rendered: on a busy page the moves and the release can
  // all arrive before React renders the press, and a drag read from the rendered state was then taken for
  // a click (a CI run's brush under load zoomed nothing). The release's own position ends the drag.
  const drag = useRef<Brush | null>(null);
  const pxOf = (ev: ReactPointerEvent) => ev.clientX - (svgRef.current?.getBoundingClientRect().left ?? 0);
  const handlers = {
    onPointerDown: (ev: ReactPointerEvent<SVGSVGElement>) => {
      if (ev.button !== 0 || (ev.target as Element).closest('.ev-dot')) return;
      const px = axis.clip(pxOf(ev));
      ev.currentTarget.setPointerCapture(ev.pointerId);
      drag.current = { x0: px, x1: px };
      setBrush(drag.current);
    },
    onPointerMove: (ev: ReactPointerEvent<SVGSVGElement>) => {
      if (!drag.current) return;
      drag.current = { ...drag.current, x1: axis.clip(pxOf(ev)) };
      setBrush(drag.current);
    },
    onPointerUp: (ev: ReactPointerEvent<SVGSVGElement>) => {
      const d = drag.current;
      if (!d) return;
      drag.current = null;
      setBrush(null);
      const x1 = axis.clip(pxOf(ev));
      const [a, b] = [Math.min(d.x0, x1), Math.max(d.x0, x1)];
      if (b - a >= BRUSH_MIN_PX) onZoom({ fromMs: axis.invert(a), toMs: axis.invert(b) });
    },
    onPointerCancel: () => {
      drag.current = null;
      setBrush(null);
    },
  };
  return { svgRef, brush, handlers };
}

export function BrushRect({ brush }: { brush: Brush | null }) {
  if (!brush) return null;
  return (
    <rect
      x={Math.min(brush.x0, brush.x1)}
      y={4}
      width={Math.abs(brush.x1 - brush.x0)}
      height={G.axisLineY - 4}
      className="tl-brush"
      data-testid="timeline-brush"
    />
  );
}
