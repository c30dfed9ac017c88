'use client';
// One incident: a header answering "since when / which version / who is on it / is it silenced", the actions
// (acknowledge, resolve, a note, a silence for its server), one timeline of everything it holds,
// and its sessions. Every string from the API is rendered as React text, so hostile ones stay text.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, Panel } from '@/components/panel';
import { RelTime } from '@/components/rel-time';
import { RowLink } from '@/components/row-link';
import { Empty, ErrorState, Loading } from '@/components/states';
import type { TIncident, TSilence } from '@/lib/contract/api/incidents';
import { fmtDateTime, fmtInt, type TimeZoneMode } from '@/lib/ui/format';
import { useIncident, useMe, useSilences } from '@/lib/ui/queries';
import { queryKeys } from '@/lib/ui/query-defs';
import { useUrlState } from '@/lib/ui/url-state';
import { writes } from '@/lib/ui/writes';
import { IncidentTimeline } from './incident-timeline';
import { OneLineForm } from './one-line-form';
import { STATUS_TONE } from './incidents-view';

/** `silences`: the active ones that hold back its server's notifications (for all its rules or one; a rule's on every server too). */
function Header({ incident, silences, tz }: { incident: TIncident; silences: TSilence[]; tz: TimeZoneMode }) {
  return (
    <dl className="kv" data-testid="incident-header">
      <dt>Since</dt>
      <dd>
        {fmtDateTime(incident.firstSeen, tz)} (last seen <RelTime value={incident.lastSeen} tz={tz} />)
      </dd>
      <dt>Version</dt>
      <dd data-testid="incident-versions">
        {incident.versions.length ? (
          incident.versions.join(', ')
        ) : (
          <span className="faint">not reported (its sessions carried no version)</span>
        )}
      </dd>
      <dt>Who is on it</dt>
      <dd data-testid="incident-owner">
        {incident.acknowledgedBy ? (
          <>
            {incident.acknowledgedBy} since {fmtDateTime(incident.acknowledgedAt!, tz)}
          </>
        ) : (
          <span className="bad-text">nobody has acknowledged it</span>
        )}
      </dd>
      {silences.length > 0 && (
        <>
          <dt>Notifications</dt>
          <dd data-testid="incident-silences">
            {silences.map((s) => (
              <div key={s.id}>
                silenced{s.ruleId === null ? '' : ` for rule ${s.ruleId}`}
                {s.server === null ? ' on every server' : ''} until {fmtDateTime(s.endsAt, tz)} by {s.createdBy}:{' '}
                <span className="faint">{s.reason}</span>
              </div>
            ))}
          </dd>
        </>
      )}
      {incident.regression && (
        <>
          <dt>Regression</dt>
          <dd className="bad-text" data-testid="incident-regression">
            came back {fmtDateTime(incident.regressedAt!, tz)} after it was resolved ({incident.regressions}×)
          </dd>
        </>
      )}
      {incident.resolvedBy && (
        <>
          <dt>Resolved</dt>
          <dd>
            by {incident.resolvedBy} at {fmtDateTime(incident.resolvedAt!, tz)}
          </dd>
        </>
      )}
    </dl>
  );
}

function useActions(id: string) {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: queryKeys.incidents() });
  const silenced = () => Promise.all([done(), qc.invalidateQueries({ queryKey: queryKeys.silences() })]);
  return {
    ack: useMutation({ mutationFn: () => writes.acknowledgeIncident(id), onSuccess: done }),
    resolve: useMutation({ mutationFn: () => writes.resolveIncident(id, {}), onSuccess: done }),
    note: useMutation({ mutationFn: (text: string) => writes.addIncidentNote(id, { text }), onSuccess: done }),
    silence: useMutation({
      mutationFn: (b: { server: string; reason: string; durationSeconds: number }) => writes.createSilence(b),
      onSuccess: silenced,
    }),
  };
}

/** How long a silence from the incident page lasts: an hour unless the operator picks another (the API takes up to 90 days). */
const SILENCE_FOR = [
  { seconds: 900, label: '15 min' },
  { seconds: 3600, label: '1 h' },
  { seconds: 4 * 3600, label: '4 h' },
  { seconds: 86_400, label: '1 day' },
] as const;
const SILENCE_FOR_DEFAULT = 3600;

function Actions({ incident, tz }: { incident: TIncident; tz: TimeZoneMode }) {
  const a = useActions(incident.id);
  const [silenceFor, setSilenceFor] = useState<number>(SILENCE_FOR_DEFAULT);
  const failed = [a.ack, a.resolve, a.note, a.silence].find((m) => m.isError);
  return (
    <Panel id="incident-actions" title="Actions">
      <div className="panel-body stack">
        <div className="row gap">
          <button
            type="button"
            className="btn"
            disabled={incident.status !== 'open'}
            onClick={() => a.ack.mutate()}
            data-testid="incident-ack"
          >
            Acknowledge
          </button>
          <button
            type="button"
            className="btn"
            disabled={incident.status === 'resolved'}
            onClick={() => a.resolve.mutate()}
            data-testid="incident-resolve"
          >
            Resolve
          </button>
        </div>
        <OneLineForm
          label="Note"
          maxLength={2000}
          button="Add note"
          inputTestId="incident-note-input"
          buttonTestId="incident-note-add"
          onSubmit={(text, clear) => a.note.mutate(text, { onSuccess: clear })}
        />
        <OneLineForm
          label={<>Silence {incident.server}&apos;s notifications, because</>}
          maxLength={500}
          button="Silence"
          inputTestId="incident-silence-reason"
          buttonTestId="incident-silence"
          onSubmit={(reason, clear) =>
            a.silence.mutate({ server: incident.server, reason, durationSeconds: silenceFor }, { onSuccess: clear })
          }
          controls={
            <label>
              <span className="small muted">for</span>
              <select
                className="select"
                value={silenceFor}
                onChange={(e) => setSilenceFor(Number(e.target.value))}
                data-testid="incident-silence-for"
              >
                {SILENCE_FOR.map((d) => (
                  <option key={d.seconds} value={d.seconds}>
                    {d.label}
                  </option>
                ))}
              </select>
            </label>
          }
        >
          {a.silence.isSuccess && (
            <span className="small good-text" data-testid="incident-silenced-until">
              silenced until {fmtDateTime(a.silence.data.silence.endsAt, tz)}
            </span>
          )}
        </OneLineForm>
        {failed && <ErrorState error={failed.error} />}
      </div>
    </Panel>
  );
}

export function IncidentPage({ id }: { id: string }) {
  const { global, link } = useUrlState();
  const me = useMe();
  const q = useIncident(id, { sessionsLimit: 50 });
  const active = useSilences({ state: 'active' });
  if (q.isPending) return <Loading label="Loading the incident…" />;
  if (!q.data) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const { incident, timeline, sessions } = q.data;
  const admin = me.data?.operator.role === 'admin';
  return (
    <div className="stack" data-testid="incident-page" data-status={incident.status}>
      <h1>
        {incident.title}{' '}
        <span className={`chip ${STATUS_TONE[incident.status]}`} data-testid="incident-status">
          {incident.status}
        </span>
      </h1>
      <Header
        incident={incident}
        silences={(active.data?.silences ?? []).filter((s) => s.server === incident.server || s.server === null)}
        tz={global.tz}
      />
      {admin && <Actions incident={incident} tz={global.tz} />}
      <IncidentTimeline timeline={timeline} truncated={q.data.timelineTruncated} />
      <Panel id="incident-sessions" title="Sessions" aside={`${fmtInt(sessions.total)} affected`}>
        {sessions.total === 0 ? (
          <Empty title="No sessions">None of its evidence is a session: alerts and door probes open incidents too.</Empty>
        ) : (
          <DataTable
            testId="incident-sessions"
            head={['Session', 'Seen'].map((h) => (
              <th key={h}>{h}</th>
            ))}
          >
            {sessions.items.map((s) => (
              <tr key={s.token}>
                <td className="mono">
                  <RowLink href={link(s.path)}>{s.token}</RowLink>
                </td>
                <td className="ts">{fmtDateTime(s.at, global.tz)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Panel>
    </div>
  );
}
