'use client';
// One probe run's steps: what each step tried, what was expected and observed, the verdict and
// finding in plain words (the codes beside them), latency, the sessions it opened and the
// redacted wire transcript. Below 640 px each step is a card whose cells carry their own labels.
import { RelTime } from '@/components/rel-time';
import { RowLink } from '@/components/row-link';
import { sessionHref } from '@/components/sessions/sessions-view';
import type { TProbeRunView } from '@/lib/contract/api/probes';
import type { ProbeVerdict, StepVerdict } from '@/lib/contract/probe-result';
import { fmtDuration, fmtLatency, shortToken, type TimeZoneMode } from '@/lib/ui/format';
import { useUrlState } from '@/lib/ui/url-state';
import { ANSWER_WORDS, FINDING_WORDS, STEP_WORDS, VERDICT_WORDS } from './probe-words';

export const TONE: Record<ProbeVerdict | StepVerdict, string> = { pass: 'good', fail: 'bad', inconclusive: 'warn', error: 'warn' };

const COLUMNS = ['Step', 'Expected', 'Observed', 'Result', 'Latency', 'Sessions', 'Why'] as const;

export function RunDetail({ run, tz }: { run: TProbeRunView; tz: TimeZoneMode }) {
  const { link } = useUrlState();
  return (
    <div data-testid="probe-run-detail">
      <p className="small">
        <span className={`chip ${TONE[run.verdict]}`}>{VERDICT_WORDS[run.verdict]}</span>{' '}
        <RelTime value={run.startedAt} tz={tz} testId="probe-run-at" /> · took {fmtDuration(run.durationMs)} ·{' '}
        {run.trigger === 'manual' ? 'run by hand' : 'scheduled'}
      </p>
      <div className="table-wrap">
        <table className="data probe-steps cards" data-testid="probe-steps">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c} className={c === 'Latency' ? 'num' : undefined}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {run.result.steps.map((step, i) => {
              const c = run.result.classification.steps[i];
              const words = STEP_WORDS[step.step];
              return (
                <tr key={step.step} data-testid={`probe-step-${step.step}`}>
                  <td data-label="Step" title={`${words.hint} (${step.step})`}>
                    {i + 1}. {words.label}
                  </td>
                  <td data-label="Expected" title={c?.expected}>
                    {c ? ANSWER_WORDS[c.expected] : '—'}
                  </td>
                  <td data-label="Observed" title={step.answer}>
                    {ANSWER_WORDS[step.answer]}
                  </td>
                  <td data-label="Result">
                    {c ? (
                      <span className={`chip ${TONE[c.verdict]}`} title={`${c.verdict} · ${c.finding}`} data-testid="probe-step-result">
                        {VERDICT_WORDS[c.verdict]} · {FINDING_WORDS[c.finding]}
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td data-label="Latency" className="num">
                    {fmtLatency(step.latencyMs)}
                  </td>
                  <td data-label="Sessions">
                    {step.tokens.length === 0
                      ? '—'
                      : step.tokens.map((t) => (
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
                  <td data-label="Why" className="probe-why small">
                    {c?.reason}
                    {step.detail && step.answer === 'error' && <span className="muted"> {step.detail}</span>}
                    <details>
                      <summary className="small muted">
                        transcript ({step.transcript.entries.length}
                        {step.transcript.omitted ? ` + ${step.transcript.omitted} omitted` : ''})
                      </summary>
                      <pre className="mono small probe-transcript" data-testid="probe-transcript">
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
