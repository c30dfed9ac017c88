// The "AlertContactPoint" table: webhook URLs alert notifications go to, each with the whsec_
// secret its deliveries are signed with, sealed at rest with DOORWATCH_SECRET_KEY like servers'.
import type { Sql, SqlExecutor } from '@/lib/db/sql';
import { settings } from '@/lib/config/settings';
import { isSealed, openSecret, openSecretWith, sealSecret } from './servers/secret-sealing';
import { TABLE_SQL, placeholders } from './tables';

export type ContactPointFormat = 'standard' | 'slack';

export interface ContactPointRow {
  id: string;
  name: string;
  url: string;
  format: ContactPointFormat;
  createdAt: number;
}

/** A contact point with its secret opened, for signing. */
export interface ContactPointWithSecret extends ContactPointRow {
  secret: string;
}

const C = TABLE_SQL.alertContactPoint;
const normalise = <T extends { createdAt: unknown }>(r: T) => ({ ...r, createdAt: Number(r.createdAt) });

export async function listContactPoints(sql: SqlExecutor): Promise<ContactPointRow[]> {
  const rows = await sql.query<ContactPointRow>(`SELECT "id", "name", "url", "format", "createdAt" FROM ${C} ORDER BY "createdAt", "id"`);
  return rows.map(normalise);
}

/** The ids among `ids` that name a contact point. */
export async function existingContactPointIds(sql: SqlExecutor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql.query<{ id: string }>(`SELECT "id" FROM ${C} WHERE "id" IN (${placeholders(ids.length)})`, ids);
  return new Set(rows.map((r) => r.id));
}

export async function insertContactPoint(sql: SqlExecutor, row: ContactPointRow, secret: string): Promise<void> {
  await sql.execute(`INSERT INTO ${C} ("id", "name", "url", "format", "secret", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`, [
    row.id,
    row.name,
    row.url,
    row.format,
    sealSecret(secret, settings().DOORWATCH_SECRET_KEY, 'contactPointSecret'),
    row.createdAt,
  ]);
}

/** Removes the contact point and its rule links; false when there is none. Its deliveries stay as history. */
export async function deleteContactPoint(sql: Sql, id: string): Promise<boolean> {
  return sql.transaction(async (tx) => {
    await tx.execute(`DELETE FROM ${TABLE_SQL.alertRuleContact} WHERE "contactPointId" = ?`, [id]);
    return (await tx.execute(`DELETE FROM ${C} WHERE "id" = ?`, [id])) > 0;
  });
}

/** The contact point with its secret opened, or null when it was removed. */
export async function contactPointForDelivery(sql: SqlExecutor, id: string): Promise<ContactPointWithSecret | null> {
  const [row] = await sql.query<ContactPointWithSecret>(`SELECT * FROM ${C} WHERE "id" = ?`, [id]);
  if (!row) return null;
  const s = settings();
  return {
    ...normalise(row),
    secret: openSecret(row.secret, s.DOORWATCH_SECRET_KEY, s.DOORWATCH_SECRET_KEY_PREVIOUS, 'contactPointSecret'),
  };
}

/** Start-up, as for server secrets: seal what is in clear (or under the previous key) and prove the rest opens. */
export async function sealContactPointSecrets(sql: SqlExecutor): Promise<number> {
  const { DOORWATCH_SECRET_KEY: key, DOORWATCH_SECRET_KEY_PREVIOUS: previous } = settings();
  const rows = await sql.query<{ id: string; secret: string }>(`SELECT "id", "secret" FROM ${C}`);
  let sealed = 0;
  for (const row of rows) {
    const { secret, withPrevious } = openSecretWith(row.secret, key, previous, 'contactPointSecret');
    if (key !== null && (withPrevious || !isSealed(row.secret))) {
      await sql.execute(`UPDATE ${C} SET "secret" = ? WHERE "id" = ?`, [sealSecret(secret, key, 'contactPointSecret'), row.id]);
      sealed++;
    }
  }
  return sealed;
}
