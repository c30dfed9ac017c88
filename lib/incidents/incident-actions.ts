// Operators' actions on an incident, each recorded in its activity thread with who and when.
// Acknowledge is a conditional UPDATE (open → acknowledged), so of two instances acknowledging at
// once one records it and the other answers 409; it also keeps the incident's unsent notifications
// as suppressed (acknowledging stops re-notification: lib/alerts/incident-link.ts does the rest).
import type { Db } from '@/lib/db/client';
import type { TIncident } from '@/lib/contract/api/incidents';
import { ApiError } from '@/lib/http/api-error';
import { acknowledgeIncident, readIncident, resolveIncident, type IncidentRow } from '@/lib/store/incidents';
import { insertActivity, type ActivityRow } from '@/lib/store/incident-activity';
import { suppressIncidentDeliveries } from '@/lib/store/alert-deliveries';
import type { SqlExecutor } from '@/lib/db/sql';
import { recordAudit, type AuditContext } from '@/lib/store/audit-log';
import { incidentView } from './incident-view';

async function existing(sql: SqlExecutor, id: string): Promise<IncidentRow> {
  const row = await readIncident(sql, id);
  if (!row) throw new ApiError(404, 'incident_not_found', `no incident "${id}"`);
  return row;
}

function notChanged(row: IncidentRow, action: string): ApiError {
  if (row.status === 'resolved')
    return new ApiError(
      409,
      'incident_resolved',
      `incident ${row.id} is resolved (by ${row.resolvedBy ?? 'someone'}); nothing to ${action}`,
    );
  return new ApiError(
    409,
    'incident_already_acknowledged',
    `incident ${row.id} was already acknowledged by ${row.acknowledgedBy ?? 'someone'}`,
  );
}

/** The incident's audit entry, in the action's transaction: its row before (read there) and after. */
async function auditIncident(
  tx: SqlExecutor,
  audit: AuditContext,
  action: 'acknowledge' | 'resolve',
  before: IncidentRow | null,
  nowMs: number,
) {
  const after = await readIncident(tx, before?.id ?? '');
  if (before && after) await recordAudit(tx, audit, { action, entityType: 'incident', entityId: before.id, before, after }, nowMs);
}

export async function acknowledge(db: Db, id: string, audit: AuditContext, nowMs: number): Promise<{ incident: TIncident }> {
  const by = audit.actor.name;
  const done = await db.sql.transaction(async (tx) => {
    const before = await readIncident(tx, id);
    if (!(await acknowledgeIncident(tx, id, by, nowMs))) return false;
    await insertActivity(tx, { incidentId: id, kind: 'acknowledged', at: nowMs, actor: by, text: null });
    await suppressIncidentDeliveries(tx, id, `incident ${id} was acknowledged by ${by}`);
    await auditIncident(tx, audit, 'acknowledge', before, nowMs);
    return true;
  });
  const row = await existing(db.sql, id);
  if (!done) throw notChanged(row, 'acknowledge');
  return { incident: incidentView(row) };
}

export async function resolve(
  db: Db,
  id: string,
  audit: AuditContext,
  note: string | undefined,
  nowMs: number,
): Promise<{ incident: TIncident }> {
  const by = audit.actor.name;
  const done = await db.sql.transaction(async (tx) => {
    const before = await readIncident(tx, id);
    if (!(await resolveIncident(tx, id, by, nowMs))) return false;
    await insertActivity(tx, { incidentId: id, kind: 'resolved', at: nowMs, actor: by, text: note ?? null });
    await auditIncident(tx, audit, 'resolve', before, nowMs);
    return true;
  });
  const row = await existing(db.sql, id);
  if (!done) throw notChanged(row, 'resolve');
  return { incident: incidentView(row) };
}

export async function addNote(db: Db, id: string, audit: AuditContext, text: string, nowMs: number): Promise<ActivityRow> {
  await existing(db.sql, id);
  return db.sql.transaction(async (tx) => {
    const note = await insertActivity(tx, { incidentId: id, kind: 'note', at: nowMs, actor: audit.actor.name, text });
    await recordAudit(tx, audit, { action: 'note', entityType: 'incident', entityId: id, before: null, after: note }, nowMs);
    return note;
  });
}
