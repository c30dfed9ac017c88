// The "OperatorToken" table: operators and the hash of their bearer token. Rows only; hashing,
// roles and views live in lib/auth.
import type { Db } from '@/lib/db/client';
import type { SqlExecutor } from '@/lib/db/sql';
import { dateTimeParam, dateTimeText, dateTimeValue, requiredDateTime } from './datetime-column';
import { TABLE_SQL } from './tables';

export interface OperatorRecord {
  id: string;
  name: string;
  role: string;
  tokenHash: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const COLUMNS = `"id", "name", "role", "tokenHash", ${dateTimeText('createdAt')}, ${dateTimeText('revokedAt')}, ${dateTimeText('lastUsedAt')}`;

interface StoredOperator {
  id: string;
  name: string;
  role: string;
  tokenHash: string;
  createdAt: unknown;
  revokedAt: unknown;
  lastUsedAt: unknown;
}

const toRecord = (r: StoredOperator): OperatorRecord => ({
  id: r.id,
  name: r.name,
  role: r.role,
  tokenHash: r.tokenHash,
  createdAt: requiredDateTime(r.createdAt),
  revokedAt: dateTimeValue(r.revokedAt),
  lastUsedAt: dateTimeValue(r.lastUsedAt),
});

async function findOne(sql: SqlExecutor, column: 'id' | 'tokenHash', value: string): Promise<OperatorRecord | null> {
  const [row] = await sql.query<StoredOperator>(`SELECT ${COLUMNS} FROM ${TABLE_SQL.operatorToken} WHERE "${column}" = ?`, [value]);
  return row ? toRecord(row) : null;
}

export async function insertOperator(db: Db, row: { id: string; name: string; role: string; tokenHash: string }): Promise<OperatorRecord> {
  const createdAt = new Date();
  await db.sql.execute(`INSERT INTO ${TABLE_SQL.operatorToken} ("id", "name", "role", "tokenHash", "createdAt") VALUES (?, ?, ?, ?, ?)`, [
    row.id,
    row.name,
    row.role,
    row.tokenHash,
    dateTimeParam(createdAt, db.sql.provider),
  ]);
  return { ...row, createdAt, revokedAt: null, lastUsedAt: null };
}

/** Oldest first (id breaks ties), so lists are stable. */
export async function listOperatorRecords(db: Db): Promise<OperatorRecord[]> {
  const rows = await db.sql.query<StoredOperator>(`SELECT ${COLUMNS} FROM ${TABLE_SQL.operatorToken}`);
  // Sorted here, by time: stored texts of different writers (Prisma's, a column default) sort apart as text.
  return rows.map(toRecord).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function findOperatorById(db: Db, id: string): Promise<OperatorRecord | null> {
  return findOne(db.sql, 'id', id);
}

export function findOperatorByTokenHash(db: Db, tokenHash: string): Promise<OperatorRecord | null> {
  return findOne(db.sql, 'tokenHash', tokenHash);
}

/** Sets the given times (the caller found the row first); returns the row as stored after. */
export async function updateOperator(db: Db, id: string, data: { revokedAt?: Date; lastUsedAt?: Date }): Promise<OperatorRecord> {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const column of ['revokedAt', 'lastUsedAt'] as const) {
    const value = data[column];
    if (value === undefined) continue;
    sets.push(`"${column}" = ?`);
    params.push(dateTimeParam(value, db.sql.provider));
  }
  if (sets.length > 0) await db.sql.execute(`UPDATE ${TABLE_SQL.operatorToken} SET ${sets.join(', ')} WHERE "id" = ?`, [...params, id]);
  const row = await findOne(db.sql, 'id', id);
  if (!row) throw new Error(`operator ${JSON.stringify(id)} vanished during an update`);
  return row;
}

/**
 * Makes the row `id` an admin holding `tokenHash` (created or replaced, unrevoked); any other row
 * holding the same hash goes first (the column is unique).
 */
export async function putAdminOperator(db: Db, id: string, name: string, tokenHash: string): Promise<void> {
  const createdAt = dateTimeParam(new Date(), db.sql.provider);
  await db.sql.transaction(async (tx) => {
    await tx.execute(`DELETE FROM ${TABLE_SQL.operatorToken} WHERE "tokenHash" = ? AND "id" <> ?`, [tokenHash, id]);
    await tx.execute(
      `INSERT INTO ${TABLE_SQL.operatorToken} ("id", "name", "role", "tokenHash", "createdAt") VALUES (?, ?, 'admin', ?, ?)
       ON CONFLICT ("id") DO UPDATE SET "tokenHash" = excluded."tokenHash", "role" = 'admin', "revokedAt" = NULL`,
      [id, name, tokenHash, createdAt],
    );
  });
}
