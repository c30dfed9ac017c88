// The dashboard's session list for an alert's window and server: where a notification and the
// Alerts page send people (global URL parameters of lib/ui/url-state: from, to, server), filtered to
// the sessions that are the measure's evidence, without the door probes the measures leave out.
import type { TAlertMeasure } from '@/lib/contract/api/alerts';

/**
 * The list's filter per measure. Deadlocks by the flag (ongoing or ended), not `deadlock=ongoing`: the
 * link outlives the moment, and a firing notification opened after the clients got free must still show
 * them. Measures that are not one kind of session (rates, rejected requests, silence, probes) add none.
 */
const EVIDENCE: Partial<Record<TAlertMeasure, string>> = {
  deadlocks_ongoing: 'deadlock',
  naive_resumes: 'naive_resume',
  dual_negotiations: 'dual_negotiation',
  burned_token_reuses: 'burned_token_reuse',
  refusal_latency_p95_ms: 'refused',
};

export function sessionsPath(server: string | null, fromMs: number, toMs: number, measure?: TAlertMeasure): string {
  const q = new URLSearchParams({ from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() });
  if (server !== null) q.set('server', server);
  const flag = measure && EVIDENCE[measure];
  if (flag) {
    q.set('flag', flag);
    q.set('synthetic', 'exclude');
  }
  return `/sessions?${q}`;
}
