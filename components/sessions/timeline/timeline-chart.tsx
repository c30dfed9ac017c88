'use client';
// One session's events on two lanes (server, client) coloured by the side each end is on, with the
// door, the boundary entry and its answer marked, zoomable by brush, by the toolbar or by a link.
// The layout (use-timeline-layout.ts) decides where everything goes; the parts here draw it.
import { useEffectiveTheme } from '@/components/shell/theme';
import { PALETTES } from '@/lib/ui/palette';
import { GEOMETRY as G } from '@/lib/ui/timeline-labels';
import { BrushRect, useBrush } from './timeline-brush';
import { ChipButtons, ClusterList, useOpenChip } from './timeline-chips';
import { TimelineEvents } from './timeline-events';
import { TimelineLanes } from './timeline-lanes';
import { AxisEnds, TimelineMarks } from './timeline-marks';
import { DeployMarkers } from './deploy-markers';
import type { TimelineProps } from './timeline-parts';
import { TimelineToolbar } from './timeline-toolbar';
import { useMeasuredPlot, useTimelineLayout } from './use-timeline-layout';

export function TimelineChart(props: TimelineProps) {
  const { events, sides, session, tz, spacing, onZoom, selected, onSelect, markers = [] } = props;
  const pal = PALETTES[useEffectiveTheme()];
  const { wrapRef, width, measure, ready } = useMeasuredPlot();
  const layout = useTimelineLayout(props, width, measure);
  const { svgRef, brush, handlers } = useBrush(layout.axis, onZoom);
  const { open, openZoom, setOpenChip } = useOpenChip(layout, events);
  const { n, zoom, plan, num } = layout;
  const shown = layout.axis.shown;
  return (
    <div className="timeline">
      <TimelineToolbar layout={layout} tz={tz} onZoom={onZoom} />
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
          {...handlers}
        >
          <TimelineLanes layout={layout} events={events} sides={sides} pal={pal} />
          <TimelineMarks layout={layout} pal={pal} />
          <DeployMarkers axis={layout.axis} markers={markers} pal={pal} />
          <TimelineEvents layout={layout} events={events} sides={sides} pal={pal} tz={tz} selected={selected} onSelect={onSelect} />
          <BrushRect brush={brush} />
          <AxisEnds plan={plan} />
        </svg>
        <ChipButtons chips={plan.chips} events={events} num={num} open={open} setOpenChip={setOpenChip} />
      </div>
      {open && (
        <ClusterList
          open={open}
          openZoom={openZoom}
          events={events}
          ts={layout.ts}
          num={num}
          tz={tz}
          selected={selected}
          onSelect={onSelect}
          onZoom={onZoom}
          onClose={() => setOpenChip(null)}
        />
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
