// Which incident an alert rule's firing is evidence of: its measure names the kind, so a rule on
// naive resumes joins the incident the naive sessions opened, in whichever order they come.
import type { TAlertMeasure } from '@/lib/contract/api/alerts';
import type { TIncidentKind } from '@/lib/contract/api/incidents';

export const KIND_OF_MEASURE: Record<TAlertMeasure, TIncidentKind> = {
  deadlocks_ongoing: 'deadlock',
  naive_resumes: 'naive_resume',
  dual_negotiations: 'dual_negotiation',
  burned_token_reuses: 'burned_token_reuse',
  refusal_latency_p95_ms: 'refusal_latency',
  renegotiation_rate: 'renegotiation',
  rejected_requests: 'rejected_requests',
  server_silence_seconds: 'server_silence',
  probes_failing: 'probe_failure',
};

/** The measure whose alerts are an incident kind's own evidence (one each way). */
export const MEASURE_OF_KIND = Object.fromEntries(Object.entries(KIND_OF_MEASURE).map(([m, k]) => [k, m])) as Record<
  TIncidentKind,
  TAlertMeasure
>;

const KIND_TITLES: Record<TIncidentKind, string> = {
  naive_resume: 'Naive resumes',
  dual_negotiation: 'Dual negotiations',
  burned_token_reuse: 'Burned-token reuses',
  probe_failure: 'Door probe failing',
  deadlock: 'Deadlocks',
  refusal_latency: 'Slow refusals',
  renegotiation: 'Renegotiation rate',
  rejected_requests: 'Rejected ingest requests',
  server_silence: 'Server silent',
};

export const incidentTitle = (kind: TIncidentKind, server: string) => `${KIND_TITLES[kind]} on ${server}`;

/** The incident's page in this dashboard. */
export const incidentPath = (id: string) => `/incidents/${encodeURIComponent(id)}`;
