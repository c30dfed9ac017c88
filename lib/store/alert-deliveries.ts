// The "AlertDelivery" table: the notification outbox. A row is written in the same transaction as
// its transition, so a restart never loses a notification; a sender claims a due row by moving its
// nextAttemptAt forward (compare-and-set), so two senders never post the same attempt twice, and a
// sender that dies mid-attempt leaves the row due again once the claim runs out. A newer change of
// the same alert (rule and server) supersedes the older unsent rows to the same contact point, so a
// receiver that comes back gets the newest state, not a stale one after it.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL, placeholders } from './tables';

/**
 * pending → delivered | failed; pending | held → superseded (a newer change of the alert was queued);
 * held (over DOORWATCH_ALERT_MAX_PER_MINUTE: not sent) → summarized (counted in a summary delivery);
 * suppressed: not sent, because its incident was acknowledged or a silence matched (kept, not lost).
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'superseded' | 'held' | 'summarized' | 'suppressed';

export interface AlertDeliveryRow {
  /** The webhook-id, the same on every attempt. */
  id: string;
  transitionId: string;
  contactPointId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  body: string;
  createdAt: number;
  deliveredAt: number | null;
  /** "ruleId/server": the alert this row notifies of (null for a rate-bound summary). */
  alertKey: string | null;
  /** The transition's sequence within its alert. */
  sequence: number;
}

const D = TABLE_SQL.alertDelivery;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const fromRow = (r: AlertDeliveryRow): AlertDeliveryRow => ({
  ...r,
  attempts: Number(r.attempts),
  nextAttemptAt: Number(r.nextAttemptAt),
  lastAttemptAt: num(r.lastAttemptAt),
  lastStatus: num(r.lastStatus),
  createdAt: Number(r.createdAt),
  deliveredAt: num(r.deliveredAt),
  sequence: Number(r.sequence ?? 0),
});

export async function insertAlertDelivery(
  tx: SqlExecutor,
  row: Pick<AlertDeliveryRow, 'id' | 'transitionId' | 'contactPointId' | 'body' | 'createdAt' | 'alertKey' | 'sequence'> & {
    status: 'pending' | 'held' | 'suppressed';
    lastError?: string | null;
  },
): Promise<void> {
  await tx.execute(
    `INSERT INTO ${D} ("id", "transitionId", "contactPointId", "status", "attempts", "nextAttemptAt", "body", "createdAt", "alertKey", "sequence", "lastError")
     VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.transitionId,
      row.contactPointId,
      row.status,
      row.createdAt,
      row.body,
      row.createdAt,
      row.alertKey,
      row.sequence,
      row.lastError ?? null,
    ],
  );
}

/** Marks the unsent rows of the same alert to the same contact point with a lower sequence superseded; how many. */
export function supersedeOlderDeliveries(
  tx: SqlExecutor,
  d: { contactPointId: string; alertKey: string; sequence: number; byId: string },
): Promise<number> {
  return tx.execute(
    `UPDATE ${D} SET "status" = 'superseded', "lastError" = ?
      WHERE "contactPointId" = ? AND "alertKey" = ? AND "sequence" < ? AND "status" IN ('pending', 'held')`,
    [`superseded by ${d.byId} (sequence ${d.sequence}), a newer change of this alert`, d.contactPointId, d.alertKey, d.sequence],
  );
}

/** Acknowledging an incident: its unsent notifications are kept as suppressed, with the reason; how many. */
export function suppressIncidentDeliveries(tx: SqlExecutor, incidentId: string, reason: string): Promise<number> {
  return tx.execute(
    `UPDATE ${D} SET "status" = 'suppressed', "lastError" = ?
      WHERE "status" IN ('pending', 'held') AND "transitionId" IN (SELECT "id" FROM ${TABLE_SQL.alertTransition} WHERE "incidentId" = ?)`,
    [reason, incidentId],
  );
}

/** Rows queued to be sent to a contact point since `sinceMs` (held ones are not): what the rate bound counts. */
export async function countQueuedSince(sql: SqlExecutor, contactPointId: string, sinceMs: number): Promise<number> {
  const [row] = await sql.query<{ n: unknown }>(
    `SELECT COUNT(*) AS "n" FROM ${D} WHERE "contactPointId" = ? AND "createdAt" >= ? AND "status" NOT IN ('held', 'summarized', 'suppressed')`,
    [contactPointId, sinceMs],
  );
  return Number(row?.n ?? 0);
}

/**
 * Claims up to `limit` deliveries due at `nowMs`: each claimed row counts the attempt and is not
 * due again before `nowMs + claimMs` (when the attempt's outcome is recorded sooner, that wins).
 */
export async function claimDueDeliveries(sql: SqlExecutor, nowMs: number, claimMs: number, limit: number): Promise<AlertDeliveryRow[]> {
  const due = await sql.query<AlertDeliveryRow>(
    `SELECT * FROM ${D} WHERE "status" = 'pending' AND "nextAttemptAt" <= ? ORDER BY "nextAttemptAt", "id" LIMIT ?`,
    [nowMs, limit],
  );
  const claimed: AlertDeliveryRow[] = [];
  for (const row of due.map(fromRow)) {
    const n = await sql.execute(
      `UPDATE ${D} SET "attempts" = "attempts" + 1, "lastAttemptAt" = ?, "nextAttemptAt" = ?
        WHERE "id" = ? AND "status" = 'pending' AND "nextAttemptAt" = ?`,
      [nowMs, nowMs + claimMs, row.id, row.nextAttemptAt],
    );
    if (n > 0) claimed.push({ ...row, attempts: row.attempts + 1, lastAttemptAt: nowMs, nextAttemptAt: nowMs + claimMs });
  }
  return claimed;
}

/**
 * The outcome of the attempt just made: delivered, failed for good, or pending again at nextAttemptAt.
 * A row superseded while its attempt was in flight stays superseded unless that attempt got through.
 */
export async function recordDeliveryAttempt(
  sql: SqlExecutor,
  id: string,
  outcome: {
    status: 'delivered' | 'failed' | 'pending';
    httpStatus: number | null;
    error: string | null;
    nextAttemptAt: number;
    atMs: number;
  },
): Promise<void> {
  const from = outcome.status === 'delivered' ? `('pending', 'superseded')` : `('pending')`;
  await sql.execute(
    `UPDATE ${D} SET "status" = ?, "lastStatus" = ?, "lastError" = ?, "nextAttemptAt" = ?, "deliveredAt" = ? WHERE "id" = ? AND "status" IN ${from}`,
    [outcome.status, outcome.httpStatus, outcome.error, outcome.nextAttemptAt, outcome.status === 'delivered' ? outcome.atMs : null, id],
  );
}

/** Newest first: one status or all, or the deliveries of some transitions. */
export async function listAlertDeliveries(
  sql: SqlExecutor,
  q: { status?: DeliveryStatus; transitionIds?: readonly string[]; limit: number },
): Promise<AlertDeliveryRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.status) {
    where.push('"status" = ?');
    params.push(q.status);
  }
  if (q.transitionIds) {
    if (q.transitionIds.length === 0) return [];
    where.push(`"transitionId" IN (${placeholders(q.transitionIds.length)})`);
    params.push(...q.transitionIds);
  }
  const rows = await sql.query<AlertDeliveryRow>(
    `SELECT * FROM ${D} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`,
    [...params, q.limit],
  );
  return rows.map(fromRow);
}

/** Deliveries that finally failed since `sinceMs` (the UI shows them beside the firing alerts). */
export async function countFailedDeliveries(sql: SqlExecutor, sinceMs: number): Promise<number> {
  const [row] = await sql.query<{ n: unknown }>(`SELECT COUNT(*) AS "n" FROM ${D} WHERE "status" = 'failed' AND "createdAt" >= ?`, [
    sinceMs,
  ]);
  return Number(row?.n ?? 0);
}
