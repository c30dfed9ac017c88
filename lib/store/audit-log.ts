// The "AuditEntry" table: who changed what, before and after. recordAudit is called inside the
// transaction of the change it describes (so a change is never unaudited and a rolled-back change
// leaves no entry); transactionDb lets the existing writers, which open their own transactions, join it.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import type { Sql, SqlExecutor } from '@/lib/db/sql';
import type { TAuditAction, TAuditActorKind, TAuditEntityType } from '@/lib/contract/api/audit';
import { redactForAudit } from './audit-redaction';
import { TABLE_SQL } from './tables';

export interface AuditActor {
  kind: TAuditActorKind;
  name: string;
  /** The operator's id when an operator acted. */
  id: string | null;
}

/** Who is acting, and for which request: handed from the route (or CLI) to the service that writes. */
export interface AuditContext {
  actor: AuditActor;
  requestId: string | null;
}

export interface AuditChange {
  action: TAuditAction;
  entityType: TAuditEntityType;
  entityId: string;
  before: unknown;
  after: unknown;
}

export interface AuditRow {
  id: string;
  at: number;
  actorName: string;
  actorKind: TAuditActorKind;
  actorId: string | null;
  action: TAuditAction;
  entityType: TAuditEntityType;
  entityId: string;
  /** Redacted JSON text (null: no such side, e.g. before a create). */
  before: string | null;
  after: string | null;
  requestId: string | null;
}

const T = TABLE_SQL.auditEntry;
const asJson = (entityType: TAuditEntityType, value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(redactForAudit(entityType, value));

/** Writes one entry; call it with the change's own transaction. */
export async function recordAudit(tx: SqlExecutor, ctx: AuditContext, change: AuditChange, at = Date.now()): Promise<void> {
  await tx.execute(
    `INSERT INTO ${T} ("id", "at", "actorName", "actorKind", "actorId", "action", "entityType", "entityId", "before", "after", "requestId")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      randomUUID(),
      at,
      ctx.actor.name.slice(0, 200),
      ctx.actor.kind,
      ctx.actor.id,
      change.action,
      change.entityType,
      change.entityId,
      asJson(change.entityType, change.before),
      asJson(change.entityType, change.after),
      ctx.requestId,
    ],
  );
}

/**
 * A handle whose statements run in `tx`: its transaction() and snapshot() join tx instead of opening
 * another (on SQLite a second one would wait for the writer this one holds).
 */
export function transactionDb(db: Pick<Db, 'config'>, tx: SqlExecutor): Db {
  const sql: Sql = {
    provider: tx.provider,
    query: (text, params) => tx.query(text, params),
    execute: (text, params) => tx.execute(text, params),
    insertMany: (table, columns, rows, tail) => tx.insertMany(table, columns, rows, tail),
    transaction: (fn) => fn(tx),
    snapshot: (fn) => fn(tx),
    close: async () => {},
  };
  return { config: db.config, sql, close: async () => {} };
}

export interface AuditFilter {
  actor?: string;
  entityType?: TAuditEntityType;
  entityId?: string;
  action?: TAuditAction;
  fromMs: number | null;
  toMs: number | null;
}

/** Newest first; `before`: the (at, id) of the last entry of the previous page. */
export async function readAuditPage(
  sql: SqlExecutor,
  f: AuditFilter,
  before: { at: number; id: string } | null,
  limit: number,
): Promise<AuditRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.actor !== undefined) {
    where.push('("actorName" = ? OR "actorId" = ?)');
    params.push(f.actor, f.actor);
  }
  for (const col of ['entityType', 'entityId', 'action'] as const) {
    if (f[col] !== undefined) {
      where.push(`"${col}" = ?`);
      params.push(f[col]);
    }
  }
  if (f.fromMs !== null) {
    where.push('"at" >= ?');
    params.push(f.fromMs);
  }
  if (f.toMs !== null) {
    where.push('"at" < ?');
    params.push(f.toMs);
  }
  if (before) {
    where.push('("at" < ? OR ("at" = ? AND "id" < ?))');
    params.push(before.at, before.at, before.id);
  }
  const rows = await sql.query<AuditRow>(
    `SELECT * FROM ${T}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY "at" DESC, "id" DESC LIMIT ?`,
    [...params, limit],
  );
  return rows.map((r) => ({ ...r, at: Number(r.at) }));
}

/** Deletes up to `limit` entries older than the cutoff (the retention job's batch). */
export async function deleteAuditEntriesBefore(tx: SqlExecutor, cutoff: number, limit: number): Promise<number> {
  return tx.execute(`DELETE FROM ${T} WHERE "id" IN (SELECT "id" FROM ${T} WHERE "at" < ? ORDER BY "at" LIMIT ?)`, [cutoff, limit]);
}

/** Doorwatch itself acting (configuration applied at start-up), named for what it applied. */
export const systemAudit = (name: string): AuditContext => ({ actor: { kind: 'system', name, id: null }, requestId: null });
