// How the ingest transaction announces what it changed. PostgreSQL: pg_notify inside the
// transaction, so the notification leaves only if (and when) it commits, and reaches every
// instance's listener. SQLite (one process): publish in-process after the commit.
import type { Provider } from '@/lib/db/config';
import type { SqlExecutor } from '@/lib/db/sql';
import { CHANGE_CHANNEL, encodeChange, type Change } from './change';
import { publishChange } from './change-feed';

export async function notifyInTransaction(tx: SqlExecutor, change: Change): Promise<void> {
  if (tx.provider !== 'postgresql' || change.servers.length === 0) return;
  await tx.query('SELECT pg_notify(?, ?)', [CHANGE_CHANNEL, encodeChange(change)]);
}

export function publishAfterCommit(provider: Provider, change: Change | null): void {
  if (provider === 'sqlite' && change && change.servers.length > 0) publishChange(change);
}
