// The "OperatorToken" table: operators and the hash of their bearer token. Rows only; hashing,
// roles and views live in lib/auth.
import type { Db } from '@/lib/db/client';

export interface OperatorRecord {
  id: string;
  name: string;
  role: string;
  tokenHash: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export function insertOperator(db: Db, row: { id: string; name: string; role: string; tokenHash: string }): Promise<OperatorRecord> {
  return db.prisma.operatorToken.create({ data: row });
}

/** Oldest first (id breaks ties), so lists are stable. */
export function listOperatorRecords(db: Db): Promise<OperatorRecord[]> {
  return db.prisma.operatorToken.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export function findOperatorById(db: Db, id: string): Promise<OperatorRecord | null> {
  return db.prisma.operatorToken.findUnique({ where: { id } });
}

export function findOperatorByTokenHash(db: Db, tokenHash: string): Promise<OperatorRecord | null> {
  return db.prisma.operatorToken.findUnique({ where: { tokenHash } });
}

export function updateOperator(db: Db, id: string, data: { revokedAt?: Date; lastUsedAt?: Date }): Promise<OperatorRecord> {
  return db.prisma.operatorToken.update({ where: { id }, data });
}

/**
 * Makes the row `id` an admin holding `tokenHash` (created or replaced, unrevoked); any other row
 * holding the same hash goes first (the column is unique).
 */
export async function putAdminOperator(db: Db, id: string, name: string, tokenHash: string): Promise<void> {
  await db.prisma.operatorToken.deleteMany({ where: { tokenHash, NOT: { id } } });
  await db.prisma.operatorToken.upsert({
    where: { id },
    create: { id, name, role: 'admin', tokenHash },
    update: { tokenHash, role: 'admin', revokedAt: null },
  });
}
