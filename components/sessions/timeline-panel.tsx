'use client';
// The timeline panel: the chart, the spacing choice, the event table under it (one selection for
// both) and a notice when the link's timeline view is not understood. The view lives in the URL
// (`?spacing=`, `?zoom=`), so a link reproduces it; changing it touches only the URL (shallow):
// the server has nothing to render for it.
import { useState } from 'react';
import { Panel } from '@/components/panel';
import { Empty } from '@/components/states';
import type { TSessionDetailResponse } from '@/lib/contract/api/session-detail';
import { tzLabel, type TimeZoneMode } from '@/lib/ui/format';
import type { SideStep } from '@/lib/boundary/sides';
import { autoSpacing, formatZoom, parseSpacing, parseZoom, type Spacing, type ZoomWindow } from '@/lib/ui/timeline-axis';
import { useUrlState } from '@/lib/ui/url-state';
import { timeMarkers } from '@/lib/ui/chart-markers';
import { useAnnotations } from '@/lib/ui/queries';
import { EventTable } from './event-table';
import { SideLegend } from './timeline/side-legend';
import { TimelineChart } from './timeline/timeline-chart';

export function TimelinePanel({
  detail,
  session: s,
  nowMs,
  sides,
  tz,
}: {
  detail: TSessionDetailResponse;
  /** The session and the instant of the page's one clock (use-session-clock.ts). */
  session: TSessionDetailResponse['session'];
  nowMs: number;
  sides: SideStep[];
  tz: TimeZoneMode;
}) {
  const { get, set } = useUrlState();
  const [selected, setSelected] = useState<number | null>(null);
  const spacingParam = parseSpacing(get('spacing'));
  const zoomParam = parseZoom(get('zoom'));
  const spacingChoice: Spacing | 'auto' = (spacingParam.ok && spacingParam.value) || 'auto';
  const setSpacing = (v: Spacing | 'auto') => set({ spacing: v === 'auto' ? null : v }, 'push', { shallow: true });
  const setZoom = (z: ZoomWindow | null) => set({ zoom: z ? formatZoom(z) : null }, 'push', { shallow: true });
  const urlProblems = [spacingParam, zoomParam].flatMap((r) => (r.ok ? [] : [r.problem]));

  const events = detail.timeline;
  // The session's span ends now while a deadlock is ongoing, else at its last event.
  const endMs = s.deadlock?.ongoing ? nowMs : events.length ? Date.parse(events[events.length - 1].at) : nowMs;
  const spacing: Spacing =
    spacingChoice === 'auto'
      ? autoSpacing(
          events.map((e) => Date.parse(e.at)),
          endMs,
        )
      : spacingChoice;
  // Deploys and first-reported versions of this server during the session: the same read as the overview's markers.
  const fromMs = events.length ? Date.parse(events[0].at) : nowMs;
  const toMs = Math.max(fromMs, endMs);
  const annotations = useAnnotations({ from: String(fromMs), to: String(toMs + 1), server: s.server }, 'off');
  const markers = timeMarkers(annotations.data, fromMs, toMs);
  return (
    <Panel
      id="h-timeline"
      title="Timeline"
      aside={
        <>
          <SideLegend />
          <select
            className="select"
            value={spacingChoice}
            onChange={(e) => setSpacing(e.target.value as Spacing | 'auto')}
            aria-label="Spacing"
            data-testid="spacing-select"
          >
            <option value="auto">Spacing: auto ({spacing === 'time' ? 'time' : 'even'})</option>
            <option value="time">Linear time</option>
            <option value="sequence">Evenly spaced</option>
          </select>
        </>
      }
    >
      <div className="panel-body">
        {urlProblems.length > 0 && (
          <div className="notice small" role="status" data-testid="timeline-url-problem">
            This link’s timeline view is not understood ({urlProblems.join('; ')}): showing the whole session, spacing automatic.{' '}
            <button type="button" className="btn btn-xs" onClick={() => set({ spacing: null, zoom: null }, 'replace', { shallow: true })}>
              Clear it
            </button>
          </div>
        )}
        {events.length === 0 ? (
          <Empty title="No events stored for this token" />
        ) : (
          <TimelineChart
            events={events}
            sides={sides}
            session={s}
            nowMs={nowMs}
            tz={tz}
            spacing={spacing}
            zoom={zoomParam.ok ? zoomParam.value : null}
            onZoom={setZoom}
            selected={selected}
            onSelect={setSelected}
            markers={markers}
          />
        )}
      </div>
      <EventTable events={events} sides={sides} tz={tz} selected={selected} onSelect={setSelected} />
      <div className="panel-note small">
        Times in {tzLabel(tz)}. Sides are derived from the events: after <code>upgrade.accepted</code> both ends are past the door; a resume
        there must be refused.
      </div>
    </Panel>
  );
}
