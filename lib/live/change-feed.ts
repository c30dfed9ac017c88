// The process-wide feed of committed changes. SQLite publishes here after its commit; on
// PostgreSQL the instance's LISTEN connection (pg-listener.ts) publishes what NOTIFY delivered,
// so a change committed on any instance reaches the browsers of every instance.
import { processSingleton } from '@/lib/config/process-state';
import type { Change } from './change';
import { componentLogger } from '@/lib/log/logger';

export type ChangeListener = (change: Change) => void;

interface Feed {
  listeners: Set<ChangeListener>;
}

// Process-wide: Next bundles route modules separately, and they must share one feed.
const feed = (): Feed => processSingleton('doorwatchChangeFeed', () => ({ listeners: new Set<ChangeListener>() }));

export function publishChange(change: Change): void {
  for (const listener of feed().listeners) {
    try {
      listener(change);
    } catch (err) {
      componentLogger('live').error({ err: err instanceof Error ? err.message : String(err) }, 'change listener failed');
    }
  }
}

/** Returns the unsubscribe function. */
export function subscribeChanges(listener: ChangeListener): () => void {
  feed().listeners.add(listener);
  return () => feed().listeners.delete(listener);
}
