// The "AlertDelivery" table: the notification outbox. A row is written in the same transaction as
// its transition, so a restart never loses a notification; a sender claims a due row by moving its
// nextAttemptAt forward (compare-and-set), so two senders never post the same attempt twice, and a
// sender that dies mid-attempt leaves the row due again once the claim runs out.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL, placeholders } from './tables';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

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
});

export async function insertAlertDelivery(
  tx: SqlExecutor,
  row: Pick<AlertDeliveryRow, 'id' | 'transitionId' | 'contactPointId' | 'body' | 'createdAt'>,
): Promise<void> {
  await tx.execute(
    `INSERT INTO ${D} ("id", "transitionId", "contactPointId", "status", "attempts", "nextAttemptAt", "body", "createdAt") VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)`,
    [row.id, row.transitionId, row.contactPointId, row.createdAt, row.body, row.createdAt],
  );
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

/** The outcome of the attempt just made: delivered, failed for good, or pending again at nextAttemptAt. */
export async function recordDeliveryAttempt(
  sql: SqlExecutor,
  id: string,
  outcome: { status: DeliveryStatus; httpStatus: number | null; error: string | null; nextAttemptAt: number; atMs: number },
): Promise<void> {
  await sql.execute(
    `UPDATE ${D} SET "status" = ?, "lastStatus" = ?, "lastError" = ?, "nextAttemptAt" = ?, "deliveredAt" = ? WHERE "id" = ?`,
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
