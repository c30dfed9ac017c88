// The "Silence" table: notification silences matched by rule, server or both (Alertmanager's
// silences, with one matcher of each). Active from creation until endsAt or until expired by hand.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL } from './tables';

export interface SilenceRow {
  id: string;
  ruleId: string | null;
  server: string | null;
  reason: string;
  createdBy: string;
  createdAt: number;
  endsAt: number;
  expiredAt: number | null;
  expiredBy: string | null;
  suppressed: number;
}

const T = TABLE_SQL.silence;
const fromRow = (r: SilenceRow): SilenceRow => ({
  ...r,
  createdAt: Number(r.createdAt),
  endsAt: Number(r.endsAt),
  expiredAt: r.expiredAt === null ? null : Number(r.expiredAt),
  suppressed: Number(r.suppressed),
});

export async function insertSilence(tx: SqlExecutor, s: Omit<SilenceRow, 'expiredAt' | 'expiredBy' | 'suppressed'>): Promise<void> {
  await tx.execute(
    `INSERT INTO ${T} ("id", "ruleId", "server", "reason", "createdBy", "createdAt", "endsAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [s.id, s.ruleId, s.server, s.reason, s.createdBy, s.createdAt, s.endsAt],
  );
}

export async function readSilence(sql: SqlExecutor, id: string): Promise<SilenceRow | null> {
  const [row] = await sql.query<SilenceRow>(`SELECT * FROM ${T} WHERE "id" = ?`, [id]);
  return row ? fromRow(row) : null;
}

/** Newest first; `activeAt`: only those active then, else all. At most 500 (silences are few). */
export async function listSilences(sql: SqlExecutor, activeAt?: number): Promise<SilenceRow[]> {
  const rows =
    activeAt === undefined
      ? await sql.query<SilenceRow>(`SELECT * FROM ${T} ORDER BY "createdAt" DESC, "id" LIMIT 500`)
      : await sql.query<SilenceRow>(
          `SELECT * FROM ${T} WHERE "expiredAt" IS NULL AND "endsAt" > ? ORDER BY "createdAt" DESC, "id" LIMIT 500`,
          [activeAt],
        );
  return rows.map(fromRow);
}

/** The first active silence matching a rule and server (a silence's null matcher matches anything). */
export async function matchingSilence(sql: SqlExecutor, ruleId: string, server: string, atMs: number): Promise<SilenceRow | null> {
  const [row] = await sql.query<SilenceRow>(
    `SELECT * FROM ${T} WHERE "expiredAt" IS NULL AND "endsAt" > ? AND "createdAt" <= ?
        AND ("ruleId" IS NULL OR "ruleId" = ?) AND ("server" IS NULL OR "server" = ?)
      ORDER BY "createdAt", "id" LIMIT 1`,
    [atMs, atMs, ruleId, server],
  );
  return row ? fromRow(row) : null;
}

export async function countSuppressed(tx: SqlExecutor, id: string): Promise<void> {
  await tx.execute(`UPDATE ${T} SET "suppressed" = "suppressed" + 1 WHERE "id" = ?`, [id]);
}

/** Ends an active silence now; false when it is unknown or already over. */
export async function expireSilence(tx: SqlExecutor, id: string, by: string, atMs: number): Promise<boolean> {
  const n = await tx.execute(`UPDATE ${T} SET "expiredAt" = ?, "expiredBy" = ? WHERE "id" = ? AND "expiredAt" IS NULL AND "endsAt" > ?`, [
    atMs,
    by,
    id,
    atMs,
  ]);
  return n > 0;
}
