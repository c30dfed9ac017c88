// With a read replica (DATABASE_READ_URL), pages refetch from the replica when told that
// something changed, but NOTIFY comes from the primary at commit, usually before the replica has
// replayed that commit: the refetch would show the old state and nothing would prompt another.
// So this instance holds the changes NOTIFY delivers until the replica has replayed past the
// primary's WAL position taken after they arrived, then publishes them. One wait at a time for
// the whole instance (changes arriving meanwhile join the next round), however many pages listen.
import { getDb, getReadDb } from '@/lib/db/client';
import { settings } from '@/lib/config/settings';
import { primaryWalPosition, replayedPast } from '@/lib/db/replica-position';
import { componentLogger } from '@/lib/log/logger';
import { mergeChanges, type Change } from './change';
import { monotonicMs } from '@/lib/time/steady-clock';

/** Past this a change is published anyway (a stalled replica must not silence the pages). */
export const REPLICA_WAIT_MAX_MS = 5_000;
const POLL_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the replica has replayed what the primary had committed when this was called. */
async function replicaCaughtUp(): Promise<void> {
  const lsn = await primaryWalPosition(getDb().sql);
  const replica = getReadDb().sql;
  for (const deadline = monotonicMs() + REPLICA_WAIT_MAX_MS; monotonicMs() < deadline; await sleep(POLL_MS)) {
    if (await replayedPast(replica, lsn)) return;
  }
  componentLogger('live').warn({ lsn, waitedMs: REPLICA_WAIT_MAX_MS }, 'read replica behind: change announced before it replayed');
}

/** `publish`, or (with a replica configured) `publish` behind the replica's replay. */
export function behindReplica(publish: (change: Change) => void): (change: Change) => void {
  if (!settings().DATABASE_READ_URL) return publish;
  let pending: Change[] = [];
  let waiting = false;
  const drain = async () => {
    waiting = true;
    while (pending.length > 0) {
      const round = pending;
      pending = [];
      await replicaCaughtUp().catch((err: unknown) =>
        componentLogger('live').warn({ err: err instanceof Error ? err.message : String(err) }, 'replica position unreadable'),
      );
      publish(mergeChanges(round));
    }
    waiting = false;
  };
  return (change) => {
    pending.push(change);
    if (!waiting) void drain();
  };
}
