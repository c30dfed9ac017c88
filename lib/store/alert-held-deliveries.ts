// Deliveries held back by the per-contact-point rate bound (DOORWATCH_ALERT_MAX_PER_MINUTE): rows
// with status 'held', never sent on their own; lib/alerts/held-summary.ts counts them into one
// summary delivery and marks them 'summarized', so a storm is reported, not silently dropped.
import type { SqlExecutor } from '@/lib/db/sql';
import type { TAlertTransitionKind } from '@/lib/contract/api/alerts';
import { TABLE_SQL, placeholders } from './tables';

const D = TABLE_SQL.alertDelivery;
const T = TABLE_SQL.alertTransition;

export interface HeldDelivery {
  id: string;
  alertKey: string;
  sequence: number;
  transitionId: string;
  ruleId: string;
  ruleName: string;
  kind: TAlertTransitionKind;
  series: string;
  at: number;
}

/** Contact points with held rows. */
export async function contactPointsWithHeld(sql: SqlExecutor): Promise<string[]> {
  const rows = await sql.query<{ contactPointId: string }>(`SELECT DISTINCT "contactPointId" FROM ${D} WHERE "status" = 'held'`);
  return rows.map((r) => r.contactPointId);
}

/** A contact point's held rows with their transitions, oldest first. */
export async function heldDeliveries(sql: SqlExecutor, contactPointId: string): Promise<HeldDelivery[]> {
  const rows = await sql.query<HeldDelivery>(
    `SELECT d."id", d."alertKey", d."sequence", d."transitionId", t."ruleId", t."ruleName", t."kind", t."series", t."at"
       FROM ${D} d JOIN ${T} t ON t."id" = d."transitionId"
      WHERE d."contactPointId" = ? AND d."status" = 'held' ORDER BY d."sequence", d."createdAt", d."id"`,
    [contactPointId],
  );
  return rows.map((r) => ({ ...r, sequence: Number(r.sequence), at: Number(r.at) }));
}

/** The highest sequence queued to be sent (not held) per alert, for these alerts and this contact point. */
export async function newestQueuedSequences(
  sql: SqlExecutor,
  contactPointId: string,
  alertKeys: readonly string[],
): Promise<Map<string, number>> {
  if (alertKeys.length === 0) return new Map();
  const rows = await sql.query<{ alertKey: string; s: unknown }>(
    `SELECT "alertKey", MAX("sequence") AS "s" FROM ${D}
      WHERE "contactPointId" = ? AND "alertKey" IN (${placeholders(alertKeys.length)}) AND "status" NOT IN ('held', 'summarized')
      GROUP BY "alertKey"`,
    [contactPointId, ...alertKeys],
  );
  return new Map(rows.map((r) => [r.alertKey, Number(r.s)]));
}

/** Marks held rows as counted in `summaryId`. */
export async function markSummarized(tx: SqlExecutor, ids: readonly string[], summaryId: string): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(
    `UPDATE ${D} SET "status" = 'summarized', "lastError" = ? WHERE "status" = 'held' AND "id" IN (${placeholders(ids.length)})`,
    [`held back by the rate bound; counted in ${summaryId}`, ...ids],
  );
}
