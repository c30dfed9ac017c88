// Which instance runs a piece of scheduled work (alert evaluation, door probes, retention). On
// PostgreSQL several instances share the database, so one of them holds a session advisory lock on a
// connection of its own and is the leader for that job until its connection ends (a crash or
// a restart frees the lock at once; another instance takes it at its next tick). SQLite
// deployments are one instance: it always leads.
//
// A holder checks its lock's connection at every tick (a round trip bounded by
// DOORWATCH_LEADER_CHECK_TIMEOUT_MS). It used to trust its own memory ("held") and ask nothing:
// a connection cut without a word (a network partition, a proxy or firewall dropping the flow,
// no FIN or RST) raises no error on an idle pg client, so the instance kept leading while the
// database ended the session and another instance took the lock: two leaders, indefinitely.
// Now a connection that does not answer is dropped (its socket destroyed) and the job stops
// until a fresh connection takes the lock again. The lock connection also asks the server for
// TCP keepalives, so the database ends the session of a partitioned leader within about a
// minute instead of the operating system's two hours, and the lease can be taken over.
import { Client } from 'pg';
import type { DatabaseConfig } from '@/lib/config/database-url';
import { settings } from '@/lib/config/settings';
import { pingConnection, tryAdvisoryLock } from '@/lib/db/pg-session';
import { recordLeadership } from './leadership';

export interface LeaderLease {
  /** True while this instance holds the lease; tries to take it when it does not. */
  acquire(): Promise<boolean>;
  /** Gives the lease up (ends the dedicated connection). */
  release(): Promise<void>;
}

/**
 * Advisory-lock keys of scheduled jobs; the start-up lock is 72707370, Prisma's migration lock 72707369,
 * partition DDL 72707374 (lib/store/partitions.ts); 72707375 was the class of the per-event-id ingest locks, which
 * "EventKey" replaced (migration 20261205010000_event_key): not in use, keep it unused.
 */
export const LEADER_LOCK_KEYS = {
  alerts: 72707371,
  probes: 72707372,
  retention: 72707373,
} as const;

export type LeaderJob = keyof typeof LEADER_LOCK_KEYS;

export interface LeaderLeaseOptions {
  /** How long the held lock's connection has to answer the check at each acquire(). */
  checkTimeoutMs: number;
}

/** Server-side TCP keepalives of the lock connection: a dead peer is found after 10 + 3 × 5 s of silence. */
const SERVER_KEEPALIVES = '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3';

export function createLeaderLease(
  config: DatabaseConfig,
  job: LeaderJob,
  options: LeaderLeaseOptions = { checkTimeoutMs: settings().DOORWATCH_LEADER_CHECK_TIMEOUT_MS },
): LeaderLease {
  if (config.provider !== 'postgresql') {
    recordLeadership(job, true);
    return { acquire: async () => true, release: async () => recordLeadership(job, false) };
  }
  const key = LEADER_LOCK_KEYS[job];
  let client: Client | null = null;
  let held = false;
  const leading = (value: boolean) => {
    held = value;
    recordLeadership(job, value);
    return value;
  };

  const drop = async () => {
    const c = client;
    client = null;
    leading(false);
    // With a query still waiting (the check that timed out), end() destroys the socket rather
    // than waiting for a goodbye a dead link never carries.
    await c?.end().catch(() => undefined);
  };

  const take = async (): Promise<boolean> => {
    if (!client) {
      const c = new Client({
        connectionString: config.url,
        application_name: `doorwatch-leader-${job}`,
        keepAlive: true,
        options: SERVER_KEEPALIVES,
      });
      // A lost connection loses the lock with it: forget both, retry at the next tick.
      c.on('error', () => void drop());
      await c.connect();
      client = c;
    }
    return leading(await tryAdvisoryLock(client, key));
  };

  return {
    async acquire() {
      try {
        if (held && client) {
          if (await pingConnection(client, options.checkTimeoutMs)) return true;
          await drop();
          return false;
        }
        return await take();
      } catch {
        await drop();
        return false;
      }
    },
    release: drop,
  };
}
