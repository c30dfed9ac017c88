// Start-up work that reads then writes (provisioning servers from DOORWATCH_SERVERS, the
// bootstrap admin) must not interleave when several instances start at once (a rolling
// deploy): on PostgreSQL it runs under a session advisory lock held on its own connection.
// SQLite deployments are one instance; nothing to coordinate.
import { Client } from 'pg';
import type { DatabaseConfig } from '@/lib/config/database-url';

/** pg_advisory_lock key for start-up steps (Prisma's migration lock is 72707369). */
export const STARTUP_LOCK_KEY = 72707370;

export async function withStartupLock<T>(config: DatabaseConfig, fn: () => Promise<T>): Promise<T> {
  if (config.provider !== 'postgresql') return fn();
  const client = new Client({ connectionString: config.url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    return await fn();
  } finally {
    // Ending the session releases the lock even if the unlock is never sent.
    await client.end().catch(() => undefined);
  }
}
