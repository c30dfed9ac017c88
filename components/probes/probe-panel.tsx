'use client';
import { RelTime } from '@/components/rel-time';
// A server's door probes on the Servers page: the target (credential shown as "set", never its
// value), "Run probe now" for admins, pass/fail over time with durations, and a run's per-step
// evidence with the probe's sessions and the redacted wire transcript.
import { RowLink } from '@/components/row-link';
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorState, Loading } from '@/components/states';
import { sessionHref } from '@/components/sessions/sessions-view';
import { ZProbeRunView, type TProbeRunView } from '@/lib/contract/api/probes';
import type { ProbeVerdict, StepVerdict } from '@/lib/contract/probe-result';
import { apiFetch } from '@/lib/ui/fetcher';
import { fmtDateTime, fmtDuration, fmtInt, fmtLatency, shortToken, type TimeZoneMode } from '@/lib/ui/format';
import { useProbeHistory } from '@/lib/ui/queries';
import { queryKeys } from '@/lib/ui/query-defs';
import { useUrlState } from '@/lib/ui/url-state';

const TONE: Record<ProbeVerdict | StepVerdict, string> = { pass: 'good', fail: 'bad', inconclusive: 'warn', error: 'warn' };

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
      style={{ display: 'flex', alignItems: 'flex-end', gap: 3, height: 36 }}
    >
      {ordered.map((r) => (
        <button
          key={r.id}
          type="button"
          role="listitem"
          className={`chip ${TONE[r.verdict]}`}
          title={`${fmtDateTime(r.startedAt, tz)} · ${r.verdict} · ${fmtDuration(r.durationMs)} · ${r.trigger}`}
          onClick={() => onSelect(r.id)}
          data-testid={`probe-run-${r.verdict}`}
          style={{
            width: 12,
            padding: 0,
            minHeight: 6,
            height: `${Math.max(18, Math.round((r.durationMs / maxMs) * 100))}%`,
            outline: r.id === selected ? '2px solid var(--accent)' : undefined,
          }}
        />
      ))}
    </div>
  );
}

function RunDetail({ run, tz }: { run: TProbeRunView; tz: TimeZoneMode }) {
  const { link } = useUrlState();
  return (
    <div data-testid="probe-run-detail">
      <p className="small">
        <span className={`chip ${TONE[run.verdict]}`}>{run.verdict}</span> <RelTime value={run.startedAt} tz={tz} testId="probe-run-at" /> ·{' '}
        {fmtDuration(run.durationMs)} · {run.trigger}
      </p>
      <div className="table-wrap">
        <table className="table small">
          <thead>
            <tr>
              <th>Step</th>
              <th>Expected</th>
              <th>Observed</th>
              <th>Verdict</th>
              <th className="num">Latency</th>
              <th>Sessions</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {run.result.steps.map((step, i) => {
              const c = run.result.classification.steps[i];
              return (
                <tr key={step.step} data-testid={`probe-step-${step.step}`}>
                  <td className="mono">{step.step}</td>
                  <td>{c?.expected}</td>
                  <td>{step.answer}</td>
                  <td>
                    <span className={`chip ${TONE[c?.verdict ?? 'error']}`}>
                      {c?.verdict} · {c?.finding}
                    </span>
                  </td>
                  <td className="num">{fmtLatency(step.latencyMs)}</td>
                  <td>
                    {step.tokens.map((t) => (
                      <RowLink
                        key={t}
                        href={sessionHref(link, { server: run.server, token: t })}
                        className="mono small"
                        title={t}
                        style={{ marginRight: 6 }}
                      >
                        {shortToken(t, 10)}
                      </RowLink>
                    ))}
                  </td>
                  <td className="small">
                    {c?.reason}
                    <details>
                      <summary className="small muted">
                        transcript ({step.transcript.entries.length}
                        {step.transcript.omitted ? ` + ${step.transcript.omitted} omitted` : ''})
                      </summary>
                      <pre
                        className="mono small"
                        data-testid="probe-transcript"
                        style={{ whiteSpace: 'pre-wrap', maxHeight: 300, overflow: 'auto' }}
                      >
                        {step.transcript.entries.map((e) => `${String(e.t).padStart(5)} ms ${e.dir} ${e.text}`).join('\n')}
                      </pre>
                    </details>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function ProbePanel({ server, admin }: { server: string; admin: boolean }) {
  const { global } = useUrlState();
  const q = useProbeHistory(server, global.refresh);
  const client = useQueryClient();
  const [selected, setSelected] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: () => apiFetch(`/api/v1/admin/servers/${encodeURIComponent(server)}/probe/run`, ZProbeRunView, { method: 'POST' }),
    onSuccess: (r) => {
      setSelected(r.id);
      void client.invalidateQueries({ queryKey: queryKeys.probes(server) });
      void client.invalidateQueries({ queryKey: queryKeys.servers() });
    },
  });
  if (q.isPending) return <Loading />;
  if (q.isError && !q.data) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const { target, runs } = q.data;
  if (!target && runs.length === 0) return null;
  const shown = runs.find((r) => r.id === selected) ?? runs[0] ?? null;
  return (
    <section className="panel stack probe-panel" data-testid={`probe-panel-${server}`}>
      <div className="page-head">
        <h2 className="mono">{server} · door probe</h2>
        {target ? (
          <span className="small muted" data-testid="probe-target">
            <code>{target.url}</code>
            {target.credentialHeader && (
              <>
                {' '}
                · {target.credentialHeader}: {target.credentialSet ? 'set' : 'not set'}
              </>
            )}{' '}
            · every {fmtDuration(target.intervalSeconds * 1000)}
            {target.enabled ? '' : ' (schedule off)'}
          </span>
        ) : (
          <span className="small muted">no target (history only)</span>
        )}
        {admin && target && (
          <button
            type="button"
            className="btn btn-primary btn-xs"
            onClick={() => run.mutate()}
            disabled={run.isPending}
            data-testid="probe-run-now"
          >
            {run.isPending ? 'Probing…' : 'Run probe now'}
          </button>
        )}
      </div>
      {run.isError && (
        <div className="form-error" role="alert">
          {run.error instanceof Error ? run.error.message : String(run.error)}
        </div>
      )}
      {runs.length === 0 ? (
        <p className="small muted">No run yet.</p>
      ) : (
        <>
          <span className="small muted" data-testid="probe-run-total">
            {fmtInt(q.data.total)}
            {q.data.totalCapped ? '+' : ''} {q.data.total === 1 && !q.data.totalCapped ? 'run' : 'runs'}
            {q.data.total > runs.length || q.data.totalCapped ? `, newest ${fmtInt(runs.length)} shown` : ''}
          </span>
          <RunStrip runs={runs} selected={shown?.id ?? null} onSelect={setSelected} tz={global.tz} />
        </>
      )}
      {shown && <RunDetail run={shown} tz={global.tz} />}
    </section>
  );
}
