// The alert API's services: rules with their state, history with its deliveries, contact points
// (secret minted here and returned once) and the delivery list. Routes stay thin over these.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import type {
  TAlertHistoryResponse,
  TAlertRule,
  TAlertRuleCreate,
  TAlertRuleListResponse,
  TAlertRulePatch,
  TContactPoint,
  TContactPointCreate,
  TAlertTransitionKind,
  TDeliverySummary,
} from '@/lib/contract/api/alerts';
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
import { countAlertTransitions, listAlertTransitions } from '@/lib/store/alert-transitions';
import { countFailedDeliveries, listAlertDeliveries, type AlertDeliveryRow, type DeliveryStatus } from '@/lib/store/alert-deliveries';
import {
  deleteContactPoint,
  existingContactPointIds,
  insertContactPoint,
  listContactPoints,
  type ContactPointRow,
} from '@/lib/store/alert-contact-points';
import { generateSecret } from '@/lib/contract/server-secret';
import { transitionServer, transitionSessionsPath, transitionSummary } from './notification-body';
import { sessionsPath } from './sessions-link';

const iso = (ms: number | null) => (ms === null ? null : toIsoMs(ms));
const DAY_MS = 86_400_000;

const URGENCY = { firing: 2, pending: 1, inactive: 0 } as const;
const stateView = (s: AlertStateRow) => ({
  state: s.state,
  since: toIsoMs(s.since),
  activeSince: iso(s.activeSince),
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

export async function createRule(db: Db, body: TAlertRuleCreate, nowMs: number): Promise<{ rule: TAlertRule }> {
  await assertContactPoints(db, body.contactPointIds);
  const id = randomUUID();
  await insertAlertRule(db.sql, {
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
  });
  return ruleResponse(db, id, nowMs);
}

export async function patchRule(db: Db, id: string, patch: TAlertRulePatch, nowMs: number): Promise<{ rule: TAlertRule }> {
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
  if (!(await updateAlertRule(db.sql, next))) throw new ApiError(404, 'alert_rule_not_found', `no alert rule with id "${id}"`);
  return ruleResponse(db, id, nowMs);
}

export async function removeRule(db: Db, id: string): Promise<void> {
  if (!(await deleteAlertRule(db.sql, id))) throw new ApiError(404, 'alert_rule_not_found', `no alert rule with id "${id}"`);
}

function deliveryView(d: AlertDeliveryRow, names: Map<string, string>): TDeliverySummary {
  return {
    id: d.id,
    contactPointId: d.contactPointId,
    contactPointName: names.get(d.contactPointId) ?? null,
    status: d.status,
    sequence: d.sequence,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? toIsoMs(d.nextAttemptAt) : null,
    lastAttemptAt: iso(d.lastAttemptAt),
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    deliveredAt: iso(d.deliveredAt),
    transitionId: d.transitionId,
    createdAt: toIsoMs(d.createdAt),
  };
}

const contactNames = async (db: Db) => new Map((await listContactPoints(db.sql)).map((c) => [c.id, c.name]));

export async function alertHistory(
  db: Db,
  q: { rule?: string; kind: readonly TAlertTransitionKind[]; limit: number },
): Promise<TAlertHistoryResponse> {
  const filter = { ruleId: q.rule ?? null, kinds: q.kind };
  const transitions = await listAlertTransitions(db.sql, { ...filter, limit: q.limit });
  const { total, totalCapped } = await countAlertTransitions(db.sql, filter);
  const deliveries = await listAlertDeliveries(db.sql, { transitionIds: transitions.map((t) => t.id), limit: transitions.length * 20 });
  const names = await contactNames(db);
  return {
    transitions: transitions.map((t) => ({
      id: t.id,
      ruleId: t.ruleId,
      ruleName: t.ruleName,
      kind: t.kind,
      at: toIsoMs(t.at),
      value: t.value,
      measure: t.measure,
      comparison: t.comparison,
      threshold: t.threshold,
      windowSeconds: Math.round(t.windowMs / 1000),
      server: t.server,
      alertServer: transitionServer(t),
      sequence: t.sequence,
      summary: transitionSummary(t),
      sessionsPath: transitionSessionsPath(t),
      deliveries: deliveries.filter((d) => d.transitionId === t.id).map((d) => deliveryView(d, names)),
    })),
    total,
    totalCapped,
  };
}

export async function deliveryList(db: Db, q: { status?: DeliveryStatus; limit: number }): Promise<{ deliveries: TDeliverySummary[] }> {
  const [rows, names] = await Promise.all([listAlertDeliveries(db.sql, q), contactNames(db)]);
  return { deliveries: rows.map((d) => deliveryView(d, names)) };
}

/** Admins see the whole URL; viewers its origin only (incoming-webhook URLs often carry a secret). */
function contactPointView(c: ContactPointRow, admin: boolean): TContactPoint {
  return { id: c.id, name: c.name, url: admin ? c.url : `${new URL(c.url).origin}/…`, format: c.format, createdAt: toIsoMs(c.createdAt) };
}

export async function contactPointList(db: Db, admin: boolean): Promise<{ contactPoints: TContactPoint[] }> {
  return { contactPoints: (await listContactPoints(db.sql)).map((c) => contactPointView(c, admin)) };
}

export async function createContactPoint(
  db: Db,
  body: TContactPointCreate,
  nowMs: number,
): Promise<{ contactPoint: TContactPoint; secret: string }> {
  const row: ContactPointRow = { id: randomUUID(), name: body.name, url: body.url, format: body.format, createdAt: nowMs };
  const secret = generateSecret();
  await insertContactPoint(db.sql, row, secret);
  return { contactPoint: contactPointView(row, true), secret };
}

export async function removeContactPoint(db: Db, id: string): Promise<void> {
  if (!(await deleteContactPoint(db.sql, id))) throw new ApiError(404, 'contact_point_not_found', `no contact point with id "${id}"`);
}
