// Contact points for the API: list (URL shown whole to admins only), create (the signing secret is
// minted here and returned once) and delete.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import type { TContactPoint, TContactPointCreate } from '@/lib/contract/api/alerts';
import { toIsoMs } from '@/lib/contract/timestamp';
import { ApiError } from '@/lib/http/api-error';
import { deleteContactPoint, insertContactPoint, listContactPoints, type ContactPointRow } from '@/lib/store/alert-contact-points';
import { generateSecret } from '@/lib/contract/server-secret';
import { recordAudit, transactionDb, type AuditContext } from '@/lib/store/audit-log';

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
  audit: AuditContext,
): Promise<{ contactPoint: TContactPoint; secret: string }> {
  const row: ContactPointRow = { id: randomUUID(), name: body.name, url: body.url, format: body.format, createdAt: nowMs };
  const secret = generateSecret();
  await db.sql.transaction(async (tx) => {
    await insertContactPoint(tx, row, secret);
    // The row has no secret field; its URL is redacted by the audit log (webhook URLs carry secrets).
    await recordAudit(tx, audit, { action: 'create', entityType: 'contact_point', entityId: row.id, before: null, after: row }, nowMs);
  });
  return { contactPoint: contactPointView(row, true), secret };
}

export async function removeContactPoint(db: Db, id: string, audit: AuditContext): Promise<void> {
  const removed = await db.sql.transaction(async (tx) => {
    const before = (await listContactPoints(tx)).find((c) => c.id === id);
    if (!before || !(await deleteContactPoint(transactionDb(db, tx).sql, id))) return false;
    await recordAudit(tx, audit, { action: 'delete', entityType: 'contact_point', entityId: id, before, after: null });
    return true;
  });
  if (!removed) throw new ApiError(404, 'contact_point_not_found', `no contact point with id "${id}"`);
}
