// The "ProbeTarget" table: one door-probe target per server, registered by an admin. The
// credential value is sealed at rest like webhook secrets (DOORWATCH_SECRET_KEY) and only ever
// opened to run a probe; readers get the header name and whether a value is set.
import type { SqlExecutor } from '@/lib/db/sql';
import { settings } from '@/lib/config/settings';
import { isSealed, openSecret, sealSecret } from './servers/secret-sealing';
import { TABLE_SQL } from './tables';

const T = TABLE_SQL.probeTarget;

/** What an admin sets. `credential` undefined = keep the stored one; null = none. */
export interface ProbeTargetInput {
  url: string;
  credential?: { header: string; value: string } | null;
  intervalMs: number;
  enabled: boolean;
  stepTimeoutMs: number;
}

/** A stored target as readers see it: never the credential value. */
export interface StoredProbeTarget {
  server: string;
  url: string;
  credentialHeader: string | null;
  credentialSet: boolean;
  /** A credential is stored unsealed (no DOORWATCH_SECRET_KEY when it was set). */
  credentialInClear: boolean;
  intervalMs: number;
  enabled: boolean;
  stepTimeoutMs: number;
  lastRunAt: number | null;
  createdAt: number;
  updatedAt: number;
}

interface Row {
  server: string;
  url: string;
  credentialHeader: string | null;
  credentialValue: string | null;
  intervalMs: unknown;
  enabled: unknown;
  stepTimeoutMs: unknown;
  lastRunAt: unknown;
  createdAt: unknown;
  updatedAt: unknown;
}

const fromRow = (r: Row): StoredProbeTarget => ({
  server: r.server,
  url: r.url,
  credentialHeader: r.credentialHeader,
  credentialSet: r.credentialValue !== null,
  credentialInClear: r.credentialValue !== null && !isSealed(r.credentialValue),
  intervalMs: Number(r.intervalMs),
  enabled: Number(r.enabled) === 1,
  stepTimeoutMs: Number(r.stepTimeoutMs),
  lastRunAt: r.lastRunAt === null ? null : Number(r.lastRunAt),
  createdAt: Number(r.createdAt),
  updatedAt: Number(r.updatedAt),
});

export async function upsertProbeTarget(
  sql: SqlExecutor,
  server: string,
  input: ProbeTargetInput,
  now: number,
): Promise<StoredProbeTarget> {
  const keep = input.credential === undefined;
  const header = input.credential?.header ?? null;
  const value = input.credential ? sealSecret(input.credential.value, settings().DOORWATCH_SECRET_KEY) : null;
  await sql.execute(
    `INSERT INTO ${T} ("server", "url", "credentialHeader", "credentialValue", "intervalMs", "enabled", "stepTimeoutMs", "lastRunAt", "createdAt", "updatedAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)
     ON CONFLICT ("server") DO UPDATE SET "url" = excluded."url", "intervalMs" = excluded."intervalMs", "enabled" = excluded."enabled",
       "stepTimeoutMs" = excluded."stepTimeoutMs", "updatedAt" = excluded."updatedAt"${keep ? '' : ', "credentialHeader" = excluded."credentialHeader", "credentialValue" = excluded."credentialValue"'}`,
    [server, input.url, header, value, input.intervalMs, input.enabled ? 1 : 0, input.stepTimeoutMs, now, now],
  );
  return (await readProbeTarget(sql, server))!;
}

export async function deleteProbeTarget(sql: SqlExecutor, server: string): Promise<boolean> {
  return (await sql.execute(`DELETE FROM ${T} WHERE "server" = ?`, [server])) > 0;
}

export async function readProbeTarget(sql: SqlExecutor, server: string): Promise<StoredProbeTarget | null> {
  const [row] = await sql.query<Row>(`SELECT * FROM ${T} WHERE "server" = ?`, [server]);
  return row ? fromRow(row) : null;
}

/**
 * Start-up: credentials stored in clear are sealed once DOORWATCH_SECRET_KEY is set; without it,
 * how many stay in clear (the start-up warning).
 */
export async function sealProbeCredentials(sql: SqlExecutor): Promise<{ sealed: number; inClear: number }> {
  const key = settings().DOORWATCH_SECRET_KEY;
  const rows = await sql.query<Pick<Row, 'server' | 'credentialValue'>>(
    `SELECT "server", "credentialValue" FROM ${T} WHERE "credentialValue" IS NOT NULL`,
  );
  const clear = rows.filter((r) => !isSealed(r.credentialValue!));
  if (key === null) return { sealed: 0, inClear: clear.length };
  for (const r of clear) {
    await sql.execute(`UPDATE ${T} SET "credentialValue" = ? WHERE "server" = ? AND "credentialValue" = ?`, [
      sealSecret(r.credentialValue!, key),
      r.server,
      r.credentialValue,
    ]);
  }
  return { sealed: clear.length, inClear: 0 };
}

/** The credential to send, opened from its sealed form (for running a probe only). */
export async function probeCredential(sql: SqlExecutor, server: string): Promise<{ header: string; value: string } | null> {
  const [row] = await sql.query<Pick<Row, 'credentialHeader' | 'credentialValue'>>(
    `SELECT "credentialHeader", "credentialValue" FROM ${T} WHERE "server" = ?`,
    [server],
  );
  if (!row || row.credentialHeader === null || row.credentialValue === null) return null;
  const s = settings();
  return { header: row.credentialHeader, value: openSecret(row.credentialValue, s.DOORWATCH_SECRET_KEY, s.DOORWATCH_SECRET_KEY_PREVIOUS) };
}

/** Enabled targets whose interval has passed since their last run (never run = due). */
export async function dueProbeTargets(sql: SqlExecutor, now: number): Promise<StoredProbeTarget[]> {
  const rows = await sql.query<Row>(
    `SELECT * FROM ${T} WHERE "enabled" = 1 AND ("lastRunAt" IS NULL OR "lastRunAt" + "intervalMs" <= ?) ORDER BY "lastRunAt" NULLS FIRST, "server"`,
    [now],
  );
  return rows.map(fromRow);
}

/**
 * Claims a due target's schedule slot before running it: moves lastRunAt from the value the due
 * list read (`seenLastRunAt`) to `now`, compare-and-set, so of two instances that both found it due
 * (a leader that lost its lease mid-run and the one that took over) exactly one runs it. True when
 * this caller claimed it.
 */
export async function claimProbeSlot(sql: SqlExecutor, server: string, seenLastRunAt: number | null, now: number): Promise<boolean> {
  const n = await sql.execute(`UPDATE ${T} SET "lastRunAt" = ? WHERE "server" = ? AND COALESCE("lastRunAt", -1) = ?`, [
    now,
    server,
    seenLastRunAt ?? -1,
  ]);
  return n > 0;
}

export async function markProbeTargetRun(sql: SqlExecutor, server: string, at: number): Promise<void> {
  await sql.execute(`UPDATE ${T} SET "lastRunAt" = ? WHERE "server" = ?`, [at, server]);
}
