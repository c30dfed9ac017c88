// How the ingest transaction announces what it changed. PostgreSQL: pg_notify inside the
// transaction, so the notification leaves only if (and when) it commits, and reaches every
// instance's listener. SQLite (one process): publish in-process after the commit.
import type { Provider } from '@/lib/config/database-url';
import { CHANGE_CHANNEL, encodeChange, type Change } from './change';
import { publishChange } from './change-feed';

/** The NOTIFY the ingest transaction sends (PostgreSQL), or null (SQLite, or nothing changed). */
export function changeNotification(provider: Provider, change: Change): { channel: string; payload: string } | null {
  if (provider !== 'postgresql' || change.servers.length === 0) return null;
  return { channel: CHANGE_CHANNEL, payload: encodeChange(change) };
}

export function publishAfterCommit(provider: Provider, change: Change | null): void {
  if (provider === 'sqlite' && change && change.servers.length > 0) publishChange(change);
}
