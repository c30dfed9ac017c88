// Alert history for the API: rule transitions with their notification deliveries, and the
// delivery list, each delivery named by its contact point.
import type { Db } from '@/lib/db/client';
import type { TAlertHistoryResponse, TAlertTransitionKind, TDeliverySummary } from '@/lib/contract/api/alerts';
import { toIsoMs } from '@/lib/contract/timestamp';
import { countAlertTransitions, listAlertTransitions } from '@/lib/store/alert-transitions';
import { listAlertDeliveries, type AlertDeliveryRow, type DeliveryStatus } from '@/lib/store/alert-deliveries';
import { listContactPoints } from '@/lib/store/alert-contact-points';
import { transitionServer, transitionSessionsPath, transitionSummary } from './notification-body';

const iso = (ms: number | null) => (ms === null ? null : toIsoMs(ms));

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
