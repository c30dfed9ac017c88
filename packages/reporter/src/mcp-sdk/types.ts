// Structural types for the parts of @modelcontextprotocol/sdk the adapter touches, so the package
// has no dependency on the SDK (its StreamableHTTPServerTransport and EventStores satisfy them).
import type { Reporter } from '../types.js';

/** The SDK's `EventStore` (server/streamableHttp.js), generic in the message type. */
export interface EventStoreLike<M> {
  storeEvent(streamId: string, message: M): Promise<string>;
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  replayEventsAfter(lastEventId: string, opts: { send: (eventId: string, message: M) => Promise<void> }): Promise<string>;
}

/** The callbacks and close() of the SDK's StreamableHTTPServerTransport. */
export interface TransportLike {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  close(): Promise<void>;
}

/** What one replay did: events sent, and how many the store held after the cursor (undefined: unknown cursor). */
export interface ReplayOutcome {
  lastEventId: string;
  replayed: number;
  available: number | undefined;
}

export interface McpSdkAdapterOptions {
  /** Where events go (createReporter(...) from '@doorwatch/reporter'). */
  reporter: Pick<Reporter, 'report'>;
  /**
   * A session with no request in flight and no open stream for this long is reported as
   * `session.abandoned` and its transport is closed (the SDK has no idle timeout of its own).
   * Default 30 minutes; 0 turns it off.
   */
  idleTimeoutMs?: number;
  /** Ended sessions remembered so that a later resume of one is reported (404). Default 10,000. */
  rememberEndedSessions?: number;
}
