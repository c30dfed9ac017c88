'use client';
// An incident's timeline. Entries of the server's other alerts and door probes are context: shown
// muted and marked, and hidden with one click (in the URL, `context=hide`, so a shared link keeps it)
// when a reader wants only what the incident itself holds.
import { Panel } from '@/components/panel';
import { RowLink } from '@/components/row-link';
import type { TTimelineEntry } from '@/lib/contract/api/incidents';
import { fmtDateTime, fmtInt } from '@/lib/ui/format';
import { useUrlState } from '@/lib/ui/url-state';

export function IncidentTimeline({ timeline, truncated }: { timeline: TTimelineEntry[]; truncated: boolean }) {
  const { global, link, get, set } = useUrlState();
  const hide = get('context') === 'hide';
  const context = timeline.filter((e) => e.context).length;
  const shown = hide ? timeline.filter((e) => !e.context) : timeline;
  return (
    <Panel
      id="incident-timeline"
      title="Timeline"
      aside={
        <span className="row gap wrap">
          {truncated && <span>newest 200 of each source</span>}
          <label className="row gap small">
            <input
              type="checkbox"
              checked={!hide}
              disabled={context === 0 && !hide}
              onChange={() => set({ context: hide ? null : 'hide' }, 'replace')}
              data-testid="timeline-context-toggle"
            />
            the server’s other alerts and probes ({fmtInt(context)})
          </label>
        </span>
      }
    >
      <ol className="timeline-list" data-testid="incident-timeline">
        {shown.map((e) => (
          <li key={`${e.source}-${e.ref ?? e.at}`} data-source={e.source} data-kind={e.kind} data-context={e.context}>
            <span className="ts">{fmtDateTime(e.at, global.tz)}</span> <span className="chip">{e.source}</span>{' '}
            {e.path ? <RowLink href={link(e.path)}>{e.summary}</RowLink> : <span>{e.summary}</span>}
            {e.actor && <span className="small muted"> — {e.actor}</span>}
            {e.context && <span className="small muted"> · context</span>}
          </li>
        ))}
      </ol>
    </Panel>
  );
}
