// Operators who sign in through an OpenID provider: rows of "OperatorToken" whose token hash is a
// random key nobody holds as a bearer token, only there to sign their session cookies. lib/auth/
// oidc-sign-in.ts decides ids, names and roles; this writes them.
import type { Db } from '@/lib/db/client';
import { dateTimeParam } from './datetime-column';
import { findOperatorById, type OperatorRecord } from './operators';
import { TABLE_SQL } from './tables';

const T = TABLE_SQL.operatorToken;

/**
 * Creates the row or brings its name and role up to date. The session key (`tokenHash`) is kept, so
 * other browsers stay signed in, unless the row was revoked: then it takes `freshTokenHash`, so the
 * sessions from before the revocation do not come back with the new sign-in.
 */
export async function putSsoOperator(
  db: Db,
  row: { id: string; name: string; role: string; freshTokenHash: string },
): Promise<OperatorRecord> {
  await db.sql.execute(
    `INSERT INTO ${T} ("id", "name", "role", "tokenHash", "createdAt") VALUES (?, ?, ?, ?, ?)
     ON CONFLICT ("id") DO UPDATE SET "name" = excluded."name", "role" = excluded."role",
       "tokenHash" = CASE WHEN ${T}."revokedAt" IS NULL THEN ${T}."tokenHash" ELSE excluded."tokenHash" END,
       "revokedAt" = NULL`,
    [row.id, row.name, row.role, row.freshTokenHash, dateTimeParam(new Date(), db.sql.provider)],
  );
  const stored = await findOperatorById(db, row.id);
  if (!stored) throw new Error(`operator ${JSON.stringify(row.id)} vanished after its sign-in`);
  return stored;
}

/** A new session key: every session signed with the old one ends (sign-out). */
export async function replaceSessionKey(db: Db, id: string, tokenHash: string): Promise<void> {
  await db.sql.execute(`UPDATE ${T} SET "tokenHash" = ? WHERE "id" = ?`, [tokenHash, id]);
}
