// Which instance runs a piece of scheduled work (alert evaluation, door probes). On PostgreSQL
// several instances share the database, so one of them holds a session advisory lock on a
// connection of its own and is the leader for that job until its connection ends (a crash or
// a restart frees the lock at once; another instance takes it at its next tick). SQLite
// deployments are one instance: it always leads.
import { Client } from 'pg';
import type { DatabaseConfig } from '@/lib/config/database-url';

export interface LeaderLease {
  /** True while this instance holds the lease; tries to take it when it does not. */
  acquire(): Promise<boolean>;
  /** Gives the lease up (ends the dedicated connection). */
  release(): Promise<void>;
}

/**
 * Advisory-lock keys of scheduled jobs; the start-up lock is 72707370, Prisma's migration lock 72707369,
 * partition DDL 72707374 (lib/store/partitions.ts) and the per-event-id locks class 72707375 (lib/store/events.ts).
 */
export const LEADER_LOCK_KEYS = {
  alerts: 72707371,
  probes: 72707372,
  retention: 72707373,
} as const;

export type LeaderJob = keyof typeof LEADER_LOCK_KEYS;

export function createLeaderLease(config: DatabaseConfig, job: LeaderJob): LeaderLease {
  if (config.provider !== 'postgresql') {
    return { acquire: async () => true, release: async () => undefined };
  }
  const key = LEADER_LOCK_KEYS[job];
  let client: Client | null = null;
  let held = false;

  const drop = async () => {
    const c = client;
    client = null;
    held = false;
    await c?.end().catch(() => undefined);
  };

  return {
    async acquire() {
      if (held && client) return true;
      try {
        if (!client) {
          const c = new Client({ connectionString: config.url, application_name: `doorwatch-leader-${job}` });
          // A lost connection loses the lock with it: forget both, retry at the next tick.
          c.on('error', () => void drop());
          await c.connect();
          client = c;
        }
        const rows = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [key]);
        held = rows.rows[0]?.ok === true;
        return held;
      } catch {
        await drop();
        return false;
      }
    },
    release: drop,
  };
}
