// The operator service: create, list, revoke, look up by token, record use. Names, roles, token
// hashing and views live here; lib/store/operators.ts only reads and writes the rows.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { ApiError } from '@/lib/http/api-error';
import { OPERATOR_ROLES, type TOperatorRole, type TOperatorView } from '@/lib/contract/api/operators';
import {
  findOperatorById,
  findOperatorByTokenHash,
  insertOperator,
  listOperatorRecords,
  updateOperator,
  type OperatorRecord,
} from '@/lib/store/operators';
import { recordAudit, transactionDb, type AuditContext } from '@/lib/store/audit-log';
import { generateOperatorToken, hashToken } from './tokens';

export const BOOTSTRAP_OPERATOR_ID = 'bootstrap-admin';

export function isOperatorRole(value: unknown): value is TOperatorRole {
  return typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);
}

export function toOperatorView(r: OperatorRecord): TOperatorView {
  return {
    id: r.id,
    name: r.name,
    role: isOperatorRole(r.role) ? r.role : 'viewer',
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    bootstrap: r.id === BOOTSTRAP_OPERATOR_ID,
  };
}

/** What the audit log keeps of an operator: its view (the token's hash is not in it). */
const operatorForAudit = (r: OperatorRecord) => toOperatorView(r);

export async function createOperator(
  db: Db,
  name: string,
  role: TOperatorRole,
  audit: AuditContext,
): Promise<{ operator: TOperatorView; token: string }> {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100) throw new ApiError(400, 'invalid_name', 'name must be 1–100 characters');
  if (!isOperatorRole(role)) throw new ApiError(400, 'invalid_role', `role must be one of ${OPERATOR_ROLES.join(', ')}`);
  const token = generateOperatorToken();
  const row = await db.sql.transaction(async (tx) => {
    const created = await insertOperator(transactionDb(db, tx), {
      id: `op_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      name: trimmed,
      role,
      tokenHash: hashToken(token),
    });
    await recordAudit(tx, audit, {
      action: 'create',
      entityType: 'operator',
      entityId: created.id,
      before: null,
      after: operatorForAudit(created),
    });
    return created;
  });
  return { operator: toOperatorView(row), token };
}

export async function listOperators(db: Db): Promise<TOperatorView[]> {
  const rows = await listOperatorRecords(db);
  return rows.map(toOperatorView);
}

/** Revokes (idempotently: a second revoke keeps the first time). 404 `operator_not_found` if unknown. */
export async function revokeOperator(db: Db, id: string, audit: AuditContext): Promise<TOperatorView> {
  const row = await findOperatorById(db, id);
  if (!row) throw new ApiError(404, 'operator_not_found', `no operator token with id ${JSON.stringify(id)}`);
  if (row.revokedAt) return toOperatorView(row);
  const updated = await db.sql.transaction(async (tx) => {
    const after = await updateOperator(transactionDb(db, tx), id, { revokedAt: new Date() });
    await recordAudit(tx, audit, {
      action: 'revoke',
      entityType: 'operator',
      entityId: id,
      before: operatorForAudit(row),
      after: operatorForAudit(after),
    });
    return after;
  });
  return toOperatorView(updated);
}

/** The active (unrevoked) operator holding this token, or null. */
export async function findActiveOperatorByToken(db: Db, token: string): Promise<OperatorRecord | null> {
  const row = await findOperatorByTokenHash(db, hashToken(token));
  return row && !row.revokedAt ? row : null;
}

export async function findActiveOperatorById(db: Db, id: string): Promise<OperatorRecord | null> {
  const row = await findOperatorById(db, id);
  return row && !row.revokedAt ? row : null;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Records use at most once a minute per token, so reads don't turn into a write each. */
export async function touchOperator(db: Db, r: OperatorRecord, now = new Date()): Promise<void> {
  if (r.lastUsedAt && now.getTime() - r.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  try {
    await updateOperator(db, r.id, { lastUsedAt: now });
  } catch {
    /* best effort: a busy database must not fail a read */
  }
}
