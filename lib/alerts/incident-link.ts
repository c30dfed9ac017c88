// What a transition means for incidents, inside its transaction (evaluate-alerts.ts): a firing is
// evidence that opens or joins the incident of its server and kind (the kind its measure names);
// any other change of the alert is linked to that incident while it is not resolved. Then whether
// its notifications go out: not when the incident is acknowledged (acknowledging stops
// re-notification), not when an active silence matches the rule or the server. Either way the
// deliveries are stored, as suppressed with the reason, never dropped.
import type { SqlExecutor } from '@/lib/db/sql';
import { linkTransitionToIncident, type AlertTransitionRow } from '@/lib/store/alert-transitions';
import { readIncidentOf, type IncidentRow } from '@/lib/store/incidents';
import { matchingSilence } from '@/lib/store/silences';
import { recordEvidence } from '@/lib/incidents/record-evidence';
import { KIND_OF_MEASURE } from '@/lib/incidents/incident-kind';
import { transitionServer } from './notification-body';

export interface IncidentLink {
  incidentId: string | null;
  /** Why its notifications are not sent (stored as the delivery's lastError); null: send them. */
  suppressedBy: string | null;
  /** The silence that matched, counted once per suppressed delivery. */
  silenceId: string | null;
}

async function incidentFor(tx: SqlExecutor, t: AlertTransitionRow, server: string, nowMs: number): Promise<IncidentRow | null> {
  const kind = KIND_OF_MEASURE[t.measure];
  // Named by its rule in the incident's thread: the transition's id told an operator nothing.
  if (t.kind === 'firing')
    return recordEvidence(tx, [{ server, kind, at: t.at, ref: t.id }], 'alert', nowMs, () => JSON.stringify(t.ruleName));
  const open = await readIncidentOf(tx, server, kind);
  return open && open.status !== 'resolved' ? open : null;
}

export async function linkIncident(tx: SqlExecutor, t: AlertTransitionRow, nowMs: number): Promise<IncidentLink> {
  const server = transitionServer(t);
  if (!server) return { incidentId: null, suppressedBy: null, silenceId: null };
  const incident = await incidentFor(tx, t, server, nowMs);
  if (incident) await linkTransitionToIncident(tx, t.id, incident.id);
  const incidentId = incident?.id ?? null;
  if (incident?.status === 'acknowledged') {
    return {
      incidentId,
      suppressedBy: `incident ${incident.id} was acknowledged by ${incident.acknowledgedBy ?? 'an operator'}`,
      silenceId: null,
    };
  }
  const silence = await matchingSilence(tx, t.ruleId, server, nowMs);
  if (silence)
    return { incidentId, suppressedBy: `silenced by ${silence.id} (${silence.createdBy}: ${silence.reason})`, silenceId: silence.id };
  return { incidentId, suppressedBy: null, silenceId: null };
}
