'use client';
// A server's door probes on the Servers page: the target (credential shown as "set", never its
// value), for admins "Run probe now", edit, pause and remove, pass/fail over time with durations,
// and a run's per-step evidence (probe-steps.tsx).
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorState, Loading } from '@/components/states';
import { ConfirmButton } from '@/components/panel';
import type { TProbeRunView, TProbeTargetView } from '@/lib/contract/api/probes';
import { fmtDateTime, fmtDuration, fmtInt, type TimeZoneMode } from '@/lib/ui/format';
import { useProbeHistory } from '@/lib/ui/queries';
import { queryKeys } from '@/lib/ui/query-defs';
import { useUrlState } from '@/lib/ui/url-state';
import { writes } from '@/lib/ui/writes';
import { RunDetail, TONE } from './probe-steps';
import { ApiErrorLine, ProbeTargetForm } from './probe-target-form';
import { VERDICT_WORDS } from './probe-words';

function RunStrip({
  runs,
  selected,
  onSelect,
  tz,
}: {
  runs: TProbeRunView[];
  selected: string | null;
  onSelect: (id: string) => void;
  tz: TimeZoneMode;
}) {
  // Oldest left, newest right; bar height is the run's duration.
  const ordered = [...runs].reverse();
  const maxMs = Math.max(1, ...ordered.map((r) => r.durationMs));
  return (
    <div
      className="probe-strip"
      role="list"
      aria-label="Probe runs, oldest first"
      data-testid="probe-strip"
      style={{ display: 'flex', alignItems: 'flex-end', gap: 6, height: 36, paddingLeft: 4 }}
    >
      {ordered.map((r) => (
        <button
          key={r.id}
          type="button"
          role="listitem"
          className={`probe-bar ${TONE[r.verdict]}`}
          aria-current={r.id === selected}
          title={`${fmtDateTime(r.startedAt, tz)} · ${VERDICT_WORDS[r.verdict]} · ${fmtDuration(r.durationMs)} · ${r.trigger === 'manual' ? 'run by hand' : 'scheduled'}`}
          aria-label={`${fmtDateTime(r.startedAt, tz)}: ${VERDICT_WORDS[r.verdict]}`}
          onClick={() => onSelect(r.id)}
          data-testid={`probe-run-${r.verdict}`}
          style={{ height: `${Math.max(18, Math.round((r.durationMs / maxMs) * 100))}%` }}
        />
      ))}
    </div>
  );
}

export function ProbePanel({ server, admin }: { server: string; admin: boolean }) {
  const { global } = useUrlState();
  const q = useProbeHistory(server, global.refresh);
  const client = useQueryClient();
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: queryKeys.probes(server) });
    void client.invalidateQueries({ queryKey: queryKeys.servers() });
  };
  const run = useMutation({
    mutationFn: () => writes.runProbe(server),
    onSuccess: (r) => {
      setSelected(r.id);
      refresh();
    },
  });
  // Pausing re-sends the target with the schedule off; the credential is omitted, so the stored one stays.
  const pause = useMutation({
    mutationFn: (t: TProbeTargetView) =>
      writes.setProbeTarget(server, {
        url: t.url,
        intervalSeconds: t.intervalSeconds,
        stepTimeoutSeconds: t.stepTimeoutSeconds,
        enabled: !t.enabled,
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: () => writes.clearProbeTarget(server), onSuccess: refresh });
  if (q.isPending) return <Loading />;
  if (q.isError && !q.data) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const { target, runs } = q.data;
  if (!target && runs.length === 0) return null;
  const shown = runs.find((r) => r.id === selected) ?? runs[0] ?? null;
  const failed = run.error ?? pause.error ?? remove.error;
  return (
    <section className="panel stack probe-panel" data-testid={`probe-panel-${server}`}>
      <div className="page-head">
        <h2 className="mono">{server} · door probe</h2>
        {target ? (
          <span className="small muted probe-target" data-testid="probe-target">
            <code>{target.url}</code>
            {target.credentialHeader && (
              <>
                {' '}
                · {target.credentialHeader}: {target.credentialSet ? 'set' : 'not set'}
              </>
            )}{' '}
            · every {target.intervalSeconds % 60 === 0 ? `${target.intervalSeconds / 60} min` : fmtDuration(target.intervalSeconds * 1000)}{' '}
            · steps give up after {target.stepTimeoutSeconds} s{' '}
            {!target.enabled && (
              <span className="chip warn" data-testid="probe-paused" title="The schedule skips this target; Run probe now still runs it">
                paused
              </span>
            )}
            {target.credentialWarning && (
              <span className="warn" role="note" data-testid="probe-credential-warning">
                {' '}
                · {target.credentialWarning}
              </span>
            )}
          </span>
        ) : (
          <span className="small muted">no target (history only)</span>
        )}
        {admin && target && (
          <span className="probe-actions">
            <button
              type="button"
              className="btn btn-primary btn-xs"
              onClick={() => run.mutate()}
              disabled={run.isPending}
              data-testid="probe-run-now"
            >
              {run.isPending ? 'Probing…' : 'Run probe now'}
            </button>
            <button
              type="button"
              className="btn btn-xs"
              onClick={() => setEditing(!editing)}
              aria-expanded={editing}
              data-testid="probe-edit"
            >
              Edit
            </button>
            <button
              type="button"
              className="btn btn-xs"
              onClick={() => pause.mutate(target)}
              disabled={pause.isPending}
              data-testid="probe-pause"
            >
              {target.enabled ? 'Pause schedule' : 'Resume schedule'}
            </button>
            <span data-testid="probe-remove">
              <ConfirmButton
                label="Remove"
                question={`Remove the door probe of ${server}? Its past runs stay until retention.`}
                onConfirm={() => remove.mutate()}
              />
            </span>
          </span>
        )}
      </div>
      {admin && target && editing && <ProbeTargetForm server={server} target={target} onDone={() => setEditing(false)} />}
      {failed && <ApiErrorLine error={failed} what={run.error ? 'The probe did not run' : 'Not changed'} />}
      {runs.length === 0 ? (
        <p className="small muted">No run yet.</p>
      ) : (
        <>
          <span className="small muted" data-testid="probe-run-total">
            {fmtInt(q.data.total)}
            {q.data.totalCapped ? '+' : ''} {q.data.total === 1 && !q.data.totalCapped ? 'run' : 'runs'}
            {q.data.total > runs.length || q.data.totalCapped ? `, newest ${fmtInt(runs.length)} shown` : ''}
          </span>
          {/* A strip compares runs: one run alone drew a lone pill that said nothing the detail below does not. */}
          {runs.length > 1 && <RunStrip runs={runs} selected={shown?.id ?? null} onSelect={setSelected} tz={global.tz} />}
        </>
      )}
      {shown && <RunDetail run={shown} tz={global.tz} />}
    </section>
  );
}

/** Admins add a target to a server that has none (the panels above edit the existing ones). */
export function AddProbeTarget({ servers }: { servers: string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="panel probe-panel stack" data-testid="probe-add">
      <div className="page-head">
        <h2>Door probes</h2>
        <span className="small muted">A probe checks in seconds whether a server refuses a resume at the upgrade boundary.</span>
        {!open && (
          <button
            type="button"
            className="btn btn-xs"
            onClick={() => setOpen(true)}
            data-testid="probe-add-open"
            disabled={!servers.length}
          >
            Add a probe target
          </button>
        )}
      </div>
      {open && <ProbeTargetForm servers={servers} target={null} onDone={() => setOpen(false)} />}
    </section>
  );
}
