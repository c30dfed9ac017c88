'use client';
// The Incidents page: totals per status, filters (status, server) and the list, newest last seen
// first; each row opens the incident. Text from the API is rendered as React text (escaped).
import { Panel, DataTable } from '@/components/panel';
import { RelTime } from '@/components/rel-time';
import { RowLink } from '@/components/row-link';
import { ServerSelect } from '@/components/server-select';
import { Empty, ListStates } from '@/components/states';
import { INCIDENT_STATUSES, type TIncident, type TIncidentStatus } from '@/lib/contract/api/incidents';
import { fmtInt, type TimeZoneMode } from '@/lib/ui/format';
import { useIncidents } from '@/lib/ui/queries';
import { useUrlState } from '@/lib/ui/url-state';
import { SilencesPanel } from './silences-panel';

export const STATUS_TONE: Record<TIncidentStatus, string> = { open: 'bad', acknowledged: 'warn', resolved: 'good' };

function Row({ incident, tz, href }: { incident: TIncident; tz: TimeZoneMode; href: string }) {
  return (
    <tr data-testid="incident-row" data-status={incident.status}>
      <td>
        <RowLink href={href} data-testid="incident-link">
          {incident.title}
        </RowLink>
        {incident.regression && <span className="chip bad small"> regression</span>}
      </td>
      <td>
        <span className={`chip ${STATUS_TONE[incident.status]}`}>{incident.status}</span>
      </td>
      <td className="ts">
        <RelTime value={incident.firstSeen} tz={tz} />
      </td>
      <td className="ts">
        <RelTime value={incident.lastSeen} tz={tz} />
      </td>
      <td className="num">{fmtInt(incident.sessionCount)}</td>
      <td className="small">{incident.acknowledgedBy ?? <span className="faint">nobody</span>}</td>
    </tr>
  );
}

export function IncidentsView() {
  const { global, get, set, link } = useUrlState();
  const status = (INCIDENT_STATUSES as readonly string[]).includes(get('status') ?? '') ? (get('status') as TIncidentStatus) : undefined;
  const q = useIncidents({ status, server: global.server || undefined, limit: 100 });
  const totals = q.data?.totals;
  return (
    <div className="stack" data-testid="incidents-page">
      <h1>Incidents</h1>
      <p className="small muted" style={{ margin: 0 }}>
        One incident per server and kind: opened by a flagged session, a firing alert or a failed door probe; joined by more of the same;
        reopened as a regression when it comes back after being resolved.
      </p>
      <div className="filters" role="group" aria-label="Incident filters">
        <ServerSelect id="incident-server-select" value={global.server} onChange={(v) => set({ server: v })} />
        <div className="field" role="group" aria-label="Status">
          {[undefined, ...INCIDENT_STATUSES].map((s) => (
            <button
              key={s ?? 'all'}
              type="button"
              className={`btn btn-xs ${status === s ? 'btn-primary' : ''}`}
              aria-pressed={status === s}
              data-testid={`incident-status-${s ?? 'all'}`}
              onClick={() => set({ status: s ?? null })}
            >
              {s ?? 'all'} · {fmtInt(totals ? (s ? totals[s] : totals.all) : 0)}
            </button>
          ))}
        </div>
      </div>
      <Panel id="incident-list" title="Incident list" aside={q.data ? `${fmtInt(q.data.total)} matching` : null}>
        <ListStates
          query={q}
          loadingLabel="Loading incidents…"
          isEmpty={(q.data?.incidents.length ?? 0) === 0}
          empty={<Empty title="No incidents">Nothing matches these filters.</Empty>}
        >
          <DataTable
            testId="incidents-table"
            head={['Incident', 'Status', 'Since', 'Last seen', 'Sessions', 'Acknowledged by'].map((h) => (
              <th key={h}>{h}</th>
            ))}
          >
            {(q.data?.incidents ?? []).map((i) => (
              <Row key={i.id} incident={i} tz={global.tz} href={link(`/incidents/${encodeURIComponent(i.id)}`)} />
            ))}
          </DataTable>
        </ListStates>
      </Panel>
      <SilencesPanel tz={global.tz} />
    </div>
  );
}
