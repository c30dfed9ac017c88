// One MCP session as the adapter sees it: reports its transitions (with a per-session `seq`, so
// events in the same millisecond keep their order) and ends it on DELETE, transport close or idle.
import { newEventId } from '../ids.js';
import type { DoorwatchEvent } from '../event.js';
import { OrdinalEventStore } from './event-store.js';
import type { EventStoreLike, McpSdkAdapterOptions, ReplayOutcome, TransportLike } from './types.js';

type Report = (event: DoorwatchEvent) => void;

/** Why a resume was turned down, when the transport did not say (e.g. a closed transport's 404). */
const DEFAULT_REASONS: Record<number, string> = {
  400: 'unknown Last-Event-ID',
  404: 'session not found (ended)',
  409: 'stream already has an active connection',
};

export class WatchedSession<M> {
  /** Pass as the transport's `eventStore`. */
  readonly eventStore: OrdinalEventStore<M>;
  private seq = 0;
  private ended = false;
  private open = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private transport: TransportLike | null = null;
  private lastError: string | null = null;
  /** Replays by cursor, until their HTTP answer is reported (requests of one session may overlap). */
  private readonly replays = new Map<string, ReplayOutcome>();

  constructor(
    readonly sessionId: string,
    store: EventStoreLike<M>,
    private readonly report: Report,
    private readonly options: Required<Pick<McpSdkAdapterOptions, 'idleTimeoutMs'>>,
    private readonly onEnded: (s: WatchedSession<M>) => void,
  ) {
    this.eventStore = new OrdinalEventStore(store, (outcome) => this.replays.set(outcome.lastEventId, outcome));
  }

  /** Pass as the transport's `onsessioninitialized`. */
  readonly onsessioninitialized = (): void => {
    this.emit('session.opened', {});
    this.armIdle();
  };

  /** Pass as the transport's `onsessionclosed` (the SDK calls it for DELETE). */
  readonly onsessionclosed = (): void => {
    this.end('session.closed', { reason: 'delete' });
    this.release();
  };

  /**
   * Chains the transport's `onclose` and `onerror` (call it before or after `server.connect`:
   * both chain). The idle timeout closes this transport.
   */
  attach(transport: TransportLike): void {
    this.transport = transport;
    const prevClose = transport.onclose;
    transport.onclose = () => {
      prevClose?.();
      this.end('session.closed', { reason: 'transport_closed' });
      this.release();
    };
    const prevError = transport.onerror;
    transport.onerror = (error: Error) => {
      prevError?.(error);
      this.lastError = error.message;
    };
  }

  get isEnded(): boolean {
    return this.ended;
  }

  // ---- the SSE → WebSocket upgrade extension (for servers that implement it) ------------------

  /** The `upgrade-accepted` SSE event is durably stored (pass the id the event store gave it). */
  upgradeAccepted(eventId: string): void {
    const ordinal = this.eventStore.ordinalOf(eventId);
    if (ordinal === null) throw new RangeError(`upgradeAccepted: ${eventId} was not stored through this session's eventStore`);
    this.emit('upgrade.accepted', { eventId, ordinal });
  }
  upgradeCompleted(): void {
    this.emit('upgrade.completed', {});
  }
  upgradeRejected(status: number): void {
    this.emit('upgrade.rejected', { status });
  }
  /** The terminal boundary refusal (`session-superseded`): the token is burned. */
  resumeRefused(reason = 'session-superseded'): void {
    this.emit('resume.refused', { reason });
    this.end(null, {});
  }

  // ---- called by the adapter around each HTTP request ------------------------------------------

  requestStarted(): void {
    this.open += 1;
    this.clearIdle();
    this.lastError = null;
  }

  requestEnded(): void {
    this.open = Math.max(0, this.open - 1);
    if (this.open === 0) this.armIdle();
  }

  resumeRequested(lastEventId: string): void {
    this.emit('resume.requested', {
      lastEventId,
      ordinal: this.eventStore.ordinalOf(lastEventId),
      streamId: this.eventStore.streamOf(lastEventId) ?? undefined,
    });
  }

  /** The resume's HTTP answer: 200 (replayed what the store gave) or a non-terminal rejection. */
  resumeAnswered(lastEventId: string, status: number): void {
    const r = this.replays.get(lastEventId);
    this.replays.delete(lastEventId);
    if (status >= 200 && status < 300) {
      this.emit(
        'resume.accepted',
        r ? { replayed: r.replayed, ...(r.available === undefined ? {} : { available: r.available }) } : { replayed: 0 },
      );
    } else if (status >= 400) {
      this.emit('resume.rejected', { status, reason: this.lastError ?? DEFAULT_REASONS[status] ?? `HTTP ${status}` });
    }
  }

  streamDropped(reason: string): void {
    if (!this.ended) this.emit('stream.dropped', { reason });
  }

  /**
   * An ended session is remembered (a later resume of it is news) but holds nothing heavy: not
   * the messages (the inner event store), not the transport; only ids and ordinals.
   */
  private release(): void {
    this.eventStore.release();
    this.transport = null;
    this.replays.clear();
  }

  /** Stops the idle timer without reporting (the adapter is shutting down). */
  dispose(): void {
    this.clearIdle();
  }

  // ---- internals ---------------------------------------------------------------------------

  private armIdle(): void {
    if (this.ended || this.options.idleTimeoutMs <= 0 || this.open > 0) return;
    this.clearIdle();
    const idleMs = this.options.idleTimeoutMs;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.ended || this.open > 0) return;
      const transport = this.transport;
      this.end('session.abandoned', { idleMs });
      // Closing the transport ends its streams and frees the session: no more leaks.
      void transport?.close().catch(() => undefined);
    }, idleMs);
    this.idleTimer.unref?.();
  }

  private clearIdle(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private end(type: 'session.closed' | 'session.abandoned' | null, data: Record<string, unknown>): void {
    if (this.ended) return;
    if (type !== null) this.emit(type, data);
    this.ended = true;
    this.clearIdle();
    // A refusal ends the session for Doorwatch while the transport may still write its terminal
    // event: the store is released when the transport closes (or on DELETE / abandonment).
    if (type !== null) this.release();
    this.onEnded(this);
  }

  /** Reports one event on this session's token (after it ended too: a resume of an ended session is news). */
  private emit(type: DoorwatchEvent['type'], data: Record<string, unknown>): void {
    const event = { id: newEventId('mcp'), token: this.sessionId, type, at: new Date().toISOString(), seq: this.seq++, data };
    this.report(event as DoorwatchEvent);
  }
}
