// Alert rules for the API: list (with each rule's state and the day's failed deliveries), create,
// patch and delete; a rule may only name contact points that exist. Routes stay thin over these.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import type { TAlertRule, TAlertRuleCreate, TAlertRuleListResponse, TAlertRulePatch } from '@/lib/contract/api/alerts';
import { toIsoMs } from '@/lib/contract/timestamp';
import { ApiError } from '@/lib/http/api-error';
import {
  deleteAlertRule,
  findAlertRule,
  insertAlertRule,
  listAlertRules,
  updateAlertRule,
  type AlertRuleRow,
} from '@/lib/store/alert-rules';
import { readAlertStates, type AlertStateRow } from '@/lib/store/alert-states';
import { countFailedDeliveries } from '@/lib/store/alert-deliveries';
import { existingContactPointIds } from '@/lib/store/alert-contact-points';
import { recordAudit, transactionDb, type AuditContext } from '@/lib/store/audit-log';
import { sessionsPath } from './sessions-link';

const DAY_MS = 86_400_000;

const URGENCY = { firing: 2, pending: 1, inactive: 0 } as const;
const stateView = (s: AlertStateRow) => ({
  state: s.state,
  since: toIsoMs(s.since),
  activeSince: s.activeSince === null ? null : toIsoMs(s.activeSince),
  value: s.value,
  evaluatedAt: toIsoMs(s.evaluatedAt),
});

/** The most urgent of a rule's server states (firing, pending, inactive; the longest-standing first). */
function headState(states: readonly AlertStateRow[]): AlertStateRow | undefined {
  return [...states].sort((a, b) => URGENCY[b.state] - URGENCY[a.state] || a.since - b.since || a.series.localeCompare(b.series))[0];
}

function ruleView(r: AlertRuleRow, states: readonly AlertStateRow[] = [], nowMs: number): TAlertRule {
  const s = headState(states);
  return {
    id: r.id,
    name: r.name,
    measure: r.measure,
    comparison: r.comparison,
    threshold: r.threshold,
    windowSeconds: Math.round(r.windowMs / 1000),
    forSeconds: Math.round(r.forMs / 1000),
    server: r.server,
    enabled: r.enabled,
    contactPointIds: r.contactPointIds,
    createdAt: toIsoMs(r.createdAt),
    updatedAt: toIsoMs(r.updatedAt),
    status: s ? stateView(s) : null,
    servers: states.map((x) => ({ server: x.series, ...stateView(x) })),
    firingServers: states.filter((x) => x.state === 'firing').map((x) => x.series),
    sessionsPath: sessionsPath(
      s && s.state !== 'inactive' && s.series ? s.series : r.server,
      (s?.activeSince ?? nowMs) - r.windowMs,
      nowMs,
      r.measure,
    ),
  };
}

export async function listRuleViews(db: Db, nowMs: number): Promise<TAlertRuleListResponse> {
  const [rules, states, failedDeliveries] = await Promise.all([
    listAlertRules(db.sql),
    readAlertStates(db.sql),
    countFailedDeliveries(db.sql, nowMs - DAY_MS),
  ]);
  const views = rules.map((r) => ruleView(r, states.get(r.id), nowMs));
  return { rules: views, firing: views.filter((v) => v.status?.state === 'firing').length, failedDeliveries };
}

async function ruleResponse(db: Db, id: string, nowMs: number): Promise<{ rule: TAlertRule }> {
  const rule = await findAlertRule(db.sql, id);
  if (!rule) throw new ApiError(404, 'alert_rule_not_found', `no alert rule with id "${id}"`);
  return { rule: ruleView(rule, (await readAlertStates(db.sql)).get(id), nowMs) };
}

async function assertContactPoints(db: Db, ids: readonly string[]): Promise<void> {
  const found = await existingContactPointIds(db.sql, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw new ApiError(
      400,
      'contact_point_not_found',
      `no contact point with id ${missing.map((m) => `"${m}"`).join(', ')}; create it first`,
    );
}

export async function createRule(db: Db, body: TAlertRuleCreate, nowMs: number, audit: AuditContext): Promise<{ rule: TAlertRule }> {
  await assertContactPoints(db, body.contactPointIds);
  const id = randomUUID();
  const row: AlertRuleRow = {
    id,
    name: body.name,
    measure: body.measure,
    comparison: body.comparison,
    threshold: body.threshold,
    windowMs: body.windowSeconds * 1000,
    forMs: body.forSeconds * 1000,
    server: body.server,
    enabled: body.enabled,
    contactPointIds: body.contactPointIds,
    createdAt: nowMs,
    updatedAt: nowMs,
  };
  await db.sql.transaction(async (tx) => {
    await insertAlertRule(transactionDb(db, tx).sql, row);
    await recordAudit(tx, audit, { action: 'create', entityType: 'alert_rule', entityId: id, before: null, after: row }, nowMs);
  });
  return ruleResponse(db, id, nowMs);
}

export async function patchRule(
  db: Db,
  id: string,
  patch: TAlertRulePatch,
  nowMs: number,
  audit: AuditContext,
): Promise<{ rule: TAlertRule }> {
  const rule = await findAlertRule(db.sql, id);
  if (!rule) throw new ApiError(404, 'alert_rule_not_found', `no alert rule with id "${id}"`);
  if (patch.contactPointIds) await assertContactPoints(db, patch.contactPointIds);
  const next: AlertRuleRow = {
    ...rule,
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.measure !== undefined && { measure: patch.measure }),
    ...(patch.comparison !== undefined && { comparison: patch.comparison }),
    ...(patch.threshold !== undefined && { threshold: patch.threshold }),
    ...(patch.windowSeconds !== undefined && { windowMs: patch.windowSeconds * 1000 }),
    ...(patch.forSeconds !== undefined && { forMs: patch.forSeconds * 1000 }),
    ...(patch.server !== undefined && { server: patch.server }),
    ...(patch.enabled !== undefined && { enabled: patch.enabled }),
    ...(patch.contactPointIds !== undefined && { contactPointIds: patch.contactPointIds }),
    updatedAt: nowMs,
  };
  const updated = await db.sql.transaction(async (tx) => {
    if (!(await updateAlertRule(transactionDb(db, tx).sql, next))) return false;
    await recordAudit(tx, audit, { action: 'update', entityType: 'alert_rule', entityId: id, before: rule, after: next }, nowMs);
    return true;
  });
  if (!updated) throw new ApiError(404, 'alert_rule_not_found', `no alert rule with id "${id}"`);
  return ruleResponse(db, id, nowMs);
}

export async function removeRule(db: Db, id: string, audit: AuditContext): Promise<void> {
  const removed = await db.sql.transaction(async (tx) => {
    const rule = await findAlertRule(tx, id);
    if (!rule || !(await deleteAlertRule(transactionDb(db, tx).sql, id))) return false;
    await recordAudit(tx, audit, { action: 'delete', entityType: 'alert_rule', entityId: id, before: rule, after: null });
    return true;
  });
  if (!removed) throw new ApiError(404, 'alert_rule_not_found', `no alert rule with id "${id}"`);
}
