// Registered MCP servers and their webhook secrets. Three front doors share this module:
// DOORWATCH_SERVERS at start-up, the `npm run server` CLI, and the admin API.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import type { Sql, SqlExecutor } from '@/lib/db/sql';
import { settings } from '@/lib/config/settings';
import { SERVER_NAME } from '@/lib/contract/server-name';
import { generateSecret, isWellFormedSecret } from '@/lib/contract/server-secret';
import { SecretSealingError, type SealingKey } from '@/lib/config/sealing-key';
import { isSealed, openSecret, openSecretWith, sealSecret } from './secret-sealing';
import { StoreError } from '../store-error';
import { dateTimeParam, dateTimeText, dateTimeValue, requiredDateTime } from '../datetime-column';
import { TABLE_SQL } from '../tables';
import { recordAudit, systemAudit, type AuditContext } from '../audit-log';

// The keys come from the process's settings (lib/config), validated at start-up.
const sealingKey = (): SealingKey | null => settings().DOORWATCH_SECRET_KEY;
const openStored = (stored: string): string =>
  openSecret(stored, settings().DOORWATCH_SECRET_KEY, settings().DOORWATCH_SECRET_KEY_PREVIOUS);

export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 60 * 60;

export interface ServerInfo {
  name: string;
  createdAt: string;
  secrets: { id: string; createdAt: string; expiresAt: string | null }[];
}

function assertName(name: string): void {
  if (!SERVER_NAME.test(name)) {
    throw new StoreError('invalid', 'invalid_server_name', `server name "${name}" must be 1-64 characters of a-z, 0-9 and "-"`);
  }
}

// Changes made without a named actor (tests, the self-reporting server) are still audited, as Doorwatch's own.
const UNNAMED = systemAudit('doorwatch');

/** What the audit log keeps of a server's secrets (its "keyring"): ids and validity, never the secret. */
const secretsForAudit = (rows: readonly SecretRow[]) =>
  rows.map((r) => ({ id: r.id, createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt?.toISOString() ?? null }));

export async function addServer(
  db: Db,
  name: string,
  secret: string = generateSecret(),
  audit: AuditContext = UNNAMED,
): Promise<{ name: string; secret: string }> {
  assertName(name);
  if (!isWellFormedSecret(secret))
    throw new StoreError('invalid', 'invalid_secret', 'a secret must be whsec_ followed by base64 of 24-64 bytes');
  const existing = await serverExists(db.sql, name);
  if (existing)
    throw new StoreError('conflict', 'server_exists', `server "${name}" is already registered; use rotate to change its secret`);
  await createServer(db.sql, name, sealSecret(secret, sealingKey()), audit);
  invalidateSecretCache(name);
  return { name, secret };
}

/** New secret now; the current ones stay valid for graceSeconds so senders can roll over. */
export async function rotateSecret(
  db: Db,
  name: string,
  graceSeconds = DEFAULT_ROTATION_GRACE_SECONDS,
  audit: AuditContext = UNNAMED,
): Promise<{ name: string; secret: string; previousValidUntil: string }> {
  assertName(name);
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0)
    throw new StoreError('invalid', 'invalid_grace', 'graceSeconds must be a number >= 0');
  if (!(await serverExists(db.sql, name))) throw new StoreError('not_found', 'server_not_found', `no server named "${name}"`);
  const now = new Date();
  const until = new Date(now.getTime() + graceSeconds * 1000);
  const secret = generateSecret();
  await db.sql.transaction(async (tx) => {
    // Secrets valid past `until` (or forever) now end then; the comparison is made on read times,
    // not in SQL, because stored DATETIME texts of different writers do not compare as text.
    const before = await secretRows(tx, name);
    const expiring = before.filter((r) => r.expiresAt === null || r.expiresAt.getTime() > until.getTime());
    for (const r of expiring) {
      await tx.execute(`UPDATE ${TABLE_SQL.serverSecret} SET "expiresAt" = ? WHERE "id" = ?`, [dateTimeParam(until, tx.provider), r.id]);
    }
    await insertSecret(tx, name, sealSecret(secret, sealingKey()), now);
    const live = (rows: readonly SecretRow[]) => rows.filter((r) => r.expiresAt === null || r.expiresAt.getTime() > now.getTime());
    await recordAudit(tx, audit, {
      action: 'rotate',
      entityType: 'server_secret',
      entityId: name,
      before: { keyring: secretsForAudit(live(before)) },
      after: { keyring: secretsForAudit(live(await secretRows(tx, name))) },
    });
  });
  invalidateSecretCache(name);
  return { name, secret, previousValidUntil: until.toISOString() };
}

export async function removeServer(db: Db, name: string, audit: AuditContext = UNNAMED): Promise<void> {
  assertName(name);
  const deleted = await db.sql.transaction(async (tx) => {
    const secrets = await secretRows(tx, name);
    await tx.execute(`DELETE FROM ${TABLE_SQL.serverSecret} WHERE "serverName" = ?`, [name]);
    const n = await tx.execute(`DELETE FROM ${TABLE_SQL.server} WHERE "name" = ?`, [name]);
    if (n > 0)
      await recordAudit(tx, audit, {
        action: 'delete',
        entityType: 'server',
        entityId: name,
        before: { name, keyring: secretsForAudit(secrets) },
        after: null,
      });
    return n;
  });
  if (deleted === 0) throw new StoreError('not_found', 'server_not_found', `no server named "${name}"`);
  invalidateSecretCache(name);
}

export async function listServers(db: Db): Promise<ServerInfo[]> {
  const servers = await registeredServers(db);
  const secrets = await secretRows(db.sql, null);
  const now = Date.now();
  return servers.map((s) => ({
    name: s.name,
    createdAt: s.createdAt.toISOString(),
    secrets: secrets
      .filter((x) => x.serverName === s.name)
      .filter((x) => x.expiresAt === null || x.expiresAt.getTime() > now)
      .map((x) => ({ id: x.id, createdAt: x.createdAt.toISOString(), expiresAt: x.expiresAt?.toISOString() ?? null })),
  }));
}

/** Name and registration time of every registered server. */
export async function registeredServers(db: Db): Promise<{ name: string; createdAt: Date }[]> {
  const rows = await db.sql.query<{ name: string; createdAt: unknown }>(
    `SELECT "name", ${dateTimeText('createdAt')} FROM ${TABLE_SQL.server} ORDER BY "name"`,
  );
  return rows.map((r) => ({ name: r.name, createdAt: requiredDateTime(r.createdAt) }));
}

interface SecretRow {
  id: string;
  serverName: string;
  secret: string;
  createdAt: Date;
  expiresAt: Date | null;
}

/** One server's secrets (all servers' for null), oldest first. */
async function secretRows(sql: SqlExecutor, server: string | null): Promise<SecretRow[]> {
  const rows = await sql.query<{ id: string; serverName: string; secret: string; createdAt: unknown; expiresAt: unknown }>(
    `SELECT "id", "serverName", "secret", ${dateTimeText('createdAt')}, ${dateTimeText('expiresAt')} FROM ${TABLE_SQL.serverSecret}` +
      (server === null ? '' : ' WHERE "serverName" = ?'),
    server === null ? [] : [server],
  );
  return rows
    .map((r) => ({
      id: r.id,
      serverName: r.serverName,
      secret: r.secret,
      createdAt: requiredDateTime(r.createdAt),
      expiresAt: dateTimeValue(r.expiresAt),
    }))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

async function serverExists(sql: SqlExecutor, name: string): Promise<boolean> {
  return (await sql.query(`SELECT 1 AS "one" FROM ${TABLE_SQL.server} WHERE "name" = ?`, [name])).length > 0;
}

async function insertSecret(sql: SqlExecutor, server: string, sealed: string, createdAt = new Date()): Promise<SecretRow> {
  const id = randomUUID();
  await sql.execute(`INSERT INTO ${TABLE_SQL.serverSecret} ("id", "serverName", "secret", "createdAt") VALUES (?, ?, ?, ?)`, [
    id,
    server,
    sealed,
    dateTimeParam(createdAt, sql.provider),
  ]);
  return { id, serverName: server, secret: sealed, createdAt, expiresAt: null };
}

/** A server row and its first secret, in one transaction with its audit entry. */
async function createServer(sql: Sql, name: string, sealed: string, audit: AuditContext): Promise<void> {
  const now = new Date();
  await sql.transaction(async (tx) => {
    await tx.execute(`INSERT INTO ${TABLE_SQL.server} ("name", "createdAt") VALUES (?, ?)`, [name, dateTimeParam(now, tx.provider)]);
    const secret = await insertSecret(tx, name, sealed, now);
    await recordAudit(tx, audit, {
      action: 'create',
      entityType: 'server',
      entityId: name,
      before: null,
      after: { name, createdAt: now.toISOString(), keyring: secretsForAudit([secret]) },
    });
  });
}

/** Names of the registered servers, one plain read (the /metrics scrape lists every one, at 0 when idle). */
export async function registeredServerNames(sql: SqlExecutor): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(`SELECT "name" FROM ${TABLE_SQL.server} ORDER BY "name"`);
  return rows.map((r) => r.name);
}

/**
 * DOORWATCH_SERVERS="name=whsec_...,other=whsec_..." (config as code). A listed server is
 * created, or gets the listed secret added if it does not have it; nothing is deleted.
 */
export async function provisionServersFromEnv(db: Db, value = settings().DOORWATCH_SERVERS): Promise<string[]> {
  if (!value?.trim()) return [];
  const provisioned: string[] = [];
  for (const entry of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq).trim() : '';
    const secret = eq > 0 ? entry.slice(eq + 1).trim() : '';
    if (!SERVER_NAME.test(name) || !isWellFormedSecret(secret)) {
      throw new Error(`DOORWATCH_SERVERS entry "${name || entry.slice(0, 20)}" must look like name=whsec_<base64 of 24-64 bytes>`);
    }
    const stored = sealSecret(secret, sealingKey());
    const audit = systemAudit('DOORWATCH_SERVERS');
    if (!(await serverExists(db.sql, name))) {
      await createServer(db.sql, name, stored, audit);
    } else if (
      !(await secretRows(db.sql, name)).some(
        (s) => openStored(s.secret) === secret && (s.expiresAt === null || s.expiresAt.getTime() > Date.now()),
      )
    ) {
      await db.sql.transaction(async (tx) => {
        const added = await insertSecret(tx, name, stored);
        await recordAudit(tx, audit, {
          action: 'create',
          entityType: 'server_secret',
          entityId: name,
          before: null,
          after: { keyring: secretsForAudit([added]) },
        });
      });
    }
    invalidateSecretCache(name);
    provisioned.push(name);
  }
  return provisioned;
}

// Secrets are read on every ingest request: cache them briefly. Another instance's rotation
// becomes visible within the TTL; the old secret stays valid for its grace period anyway.
const SECRET_CACHE_TTL_MS = 5_000;
const secretCache = new Map<string, { secrets: string[]; loadedAt: number }>();

function invalidateSecretCache(name: string): void {
  secretCache.delete(name);
}

/** The secrets that currently verify this server's signatures (empty if unknown). */
export async function activeSecrets(db: Db, name: string, now = Date.now()): Promise<string[]> {
  const hit = secretCache.get(name);
  if (hit && now - hit.loadedAt < SECRET_CACHE_TTL_MS) return hit.secrets;
  const rows = await secretRows(db.sql, name);
  let secrets: string[];
  try {
    secrets = rows.filter((r) => r.expiresAt === null || r.expiresAt.getTime() > now).map((r) => openStored(r.secret));
  } catch (err) {
    // A configuration fault, not the sender's: 503 so senders retry (nothing is lost) once it is fixed.
    if (err instanceof SecretSealingError) throw new StoreError('unavailable', err.code, err.message);
    throw err;
  }
  secretCache.set(name, { secrets, loadedAt: now });
  return secrets;
}

/**
 * Start-up: with a key, seal every secret still stored in clear or sealed with the previous key;
 * in any case prove that the stored secrets open, so a wrong key stops the start instead of
 * answering every sender 503. Returns how many were (re)sealed and how many stay in clear.
 */
export async function sealStoredSecrets(db: Db): Promise<{ sealed: number; inClear: number }> {
  const key = sealingKey();
  const previous = settings().DOORWATCH_SECRET_KEY_PREVIOUS;
  const rows = await secretRows(db.sql, null);
  let sealed = 0;
  for (const row of rows) {
    const { secret, withPrevious } = openSecretWith(row.secret, key, previous);
    if (key !== null && (withPrevious || !isSealed(row.secret))) {
      await db.sql.execute(`UPDATE ${TABLE_SQL.serverSecret} SET "secret" = ? WHERE "id" = ?`, [sealSecret(secret, key), row.id]);
      sealed++;
    }
  }
  secretCache.clear();
  return { sealed, inClear: key === null ? rows.filter((r) => !isSealed(r.secret)).length : 0 };
}
