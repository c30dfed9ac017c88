// Registered MCP servers and their webhook secrets. Three front doors share this module:
// DOORWATCH_SERVERS at start-up, the `npm run server` CLI, and the admin API.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { settings } from '@/lib/config/settings';
import { SERVER_NAME, generateSecret, isWellFormedSecret } from '@/lib/contract/server-secret';
import { SecretSealingError, type SealingKey } from '@/lib/config/sealing-key';
import { isSealed, openSecret, openSecretWith, sealSecret } from './secret-sealing';
import { StoreError } from '../store-error';

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

export async function addServer(db: Db, name: string, secret: string = generateSecret()): Promise<{ name: string; secret: string }> {
  assertName(name);
  if (!isWellFormedSecret(secret))
    throw new StoreError('invalid', 'invalid_secret', 'a secret must be whsec_ followed by base64 of 24-64 bytes');
  const existing = await db.prisma.server.findUnique({ where: { name } });
  if (existing)
    throw new StoreError('conflict', 'server_exists', `server "${name}" is already registered; use rotate to change its secret`);
  await db.prisma.server.create({ data: { name, secrets: { create: { id: randomUUID(), secret: sealSecret(secret, sealingKey()) } } } });
  invalidateSecretCache(name);
  return { name, secret };
}

/** New secret now; the current ones stay valid for graceSeconds so senders can roll over. */
export async function rotateSecret(
  db: Db,
  name: string,
  graceSeconds = DEFAULT_ROTATION_GRACE_SECONDS,
): Promise<{ name: string; secret: string; previousValidUntil: string }> {
  assertName(name);
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0)
    throw new StoreError('invalid', 'invalid_grace', 'graceSeconds must be a number >= 0');
  const server = await db.prisma.server.findUnique({ where: { name } });
  if (!server) throw new StoreError('not_found', 'server_not_found', `no server named "${name}"`);
  const now = new Date();
  const until = new Date(now.getTime() + graceSeconds * 1000);
  const secret = generateSecret();
  await db.prisma.$transaction([
    db.prisma.serverSecret.updateMany({
      where: { serverName: name, OR: [{ expiresAt: null }, { expiresAt: { gt: until } }] },
      data: { expiresAt: until },
    }),
    db.prisma.serverSecret.create({ data: { id: randomUUID(), serverName: name, secret: sealSecret(secret, sealingKey()) } }),
  ]);
  invalidateSecretCache(name);
  return { name, secret, previousValidUntil: until.toISOString() };
}

export async function removeServer(db: Db, name: string): Promise<void> {
  assertName(name);
  const deleted = await db.prisma.server.deleteMany({ where: { name } });
  if (deleted.count === 0) throw new StoreError('not_found', 'server_not_found', `no server named "${name}"`);
  invalidateSecretCache(name);
}

export async function listServers(db: Db): Promise<ServerInfo[]> {
  const servers = await db.prisma.server.findMany({ orderBy: { name: 'asc' }, include: { secrets: { orderBy: { createdAt: 'asc' } } } });
  const now = Date.now();
  return servers.map((s) => ({
    name: s.name,
    createdAt: s.createdAt.toISOString(),
    secrets: s.secrets
      .filter((x) => x.expiresAt === null || x.expiresAt.getTime() > now)
      .map((x) => ({ id: x.id, createdAt: x.createdAt.toISOString(), expiresAt: x.expiresAt?.toISOString() ?? null })),
  }));
}

/** Name and registration time of every registered server. */
export async function registeredServers(db: Db): Promise<{ name: string; createdAt: Date }[]> {
  return db.prisma.server.findMany({ select: { name: true, createdAt: true } });
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
    const server = await db.prisma.server.findUnique({ where: { name }, include: { secrets: true } });
    const stored = sealSecret(secret, sealingKey());
    if (!server) {
      await db.prisma.server.create({ data: { name, secrets: { create: { id: randomUUID(), secret: stored } } } });
    } else if (
      !server.secrets.some((s) => openStored(s.secret) === secret && (s.expiresAt === null || s.expiresAt.getTime() > Date.now()))
    ) {
      await db.prisma.serverSecret.create({ data: { id: randomUUID(), serverName: name, secret: stored } });
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
  const rows = await db.prisma.serverSecret.findMany({ where: { serverName: name } });
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
  const rows = await db.prisma.serverSecret.findMany({ select: { id: true, secret: true } });
  let sealed = 0;
  for (const row of rows) {
    const { secret, withPrevious } = openSecretWith(row.secret, key, previous);
    if (key !== null && (withPrevious || !isSealed(row.secret))) {
      await db.prisma.serverSecret.update({ where: { id: row.id }, data: { secret: sealSecret(secret, key) } });
      sealed++;
    }
  }
  secretCache.clear();
  return { sealed, inClear: key === null ? rows.filter((r) => !isSealed(r.secret)).length : 0 };
}
