'use client';
// Above the plot: zoom to the door, zoom out, reset, what is in view, and a link's zoom that missed.
import { fmtDuration, fmtTime, type TimeZoneMode } from '@/lib/ui/format';
import { zoomOut, type ZoomWindow } from '@/lib/ui/timeline-axis';
import type { TimelineLayout } from './use-timeline-layout';

export function TimelineToolbar({
  layout,
  tz,
  onZoom,
}: {
  layout: TimelineLayout;
  tz: TimeZoneMode;
  onZoom: (z: ZoomWindow | null) => void;
}) {
  const { doorZoom, zoom, extent, n } = layout;
  const doorIdx = layout.keys.doorIdx;
  const total = extent.toMs - extent.fromMs;
  return (
    <>
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
            ? `${fmtTime(zoom.fromMs, tz)} – ${fmtTime(zoom.toMs, tz)} · ${fmtDuration(zoom.toMs - zoom.fromMs)} of ${fmtDuration(total)} · ${layout.axis.shown.length} of ${n} events`
            : `Whole session · ${n} events · drag across the chart to zoom`}
        </span>
      </div>
      {layout.zoomOutside && (
        <div className="notice small" role="status" data-testid="zoom-outside">
          The zoom in this link lies outside this session: showing all of it.{' '}
          <button type="button" className="btn btn-xs" onClick={() => onZoom(null)}>
            Clear the zoom
          </button>
        </div>
      )}
    </>
  );
}
