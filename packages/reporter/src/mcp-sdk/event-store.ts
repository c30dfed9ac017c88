// An EventStore wrapper for the official MCP SDK: gives every stored event a per-session ordinal
// (string ids say nothing about order; the Doorwatch contract takes the ordinal instead) and
// counts what a replay sent against what the store held after the cursor. When its session ends
// it lets go of the inner store (the messages: often most of a session's memory) and keeps only
// what later reports need: each event id's ordinal and stream, and the per-stream ordinals.
import type { EventStoreLike, ReplayOutcome } from './types.js';

interface Stored {
  streamId: string;
  ordinal: number;
}

export class OrdinalEventStore<M> implements EventStoreLike<M> {
  private readonly stored = new Map<string, Stored>();
  /** Ordinals per stream, ascending (they are assigned in order). */
  private readonly byStream = new Map<string, number[]>();
  private next = 1;
  /** The wrapped store; null once released (the session ended). */
  private inner: EventStoreLike<M> | null;
  private onReplay: ((outcome: ReplayOutcome) => void) | null;

  constructor(inner: EventStoreLike<M>, onReplay: (outcome: ReplayOutcome) => void) {
    this.inner = inner;
    this.onReplay = onReplay;
  }

  /**
   * The session ended: drop the inner store and the replay callback, so the messages can be
   * collected while the ids stay known (a later resume of the ended session is still reported
   * with its ordinal). The SDK's transport is closed by then and stores or replays nothing more.
   */
  release(): void {
    this.inner = null;
    this.onReplay = null;
  }

  async storeEvent(streamId: string, message: M): Promise<string> {
    if (!this.inner) throw new RangeError('storeEvent: the session has ended and its event store was released');
    const eventId = await this.inner.storeEvent(streamId, message);
    const ordinal = this.next++;
    this.stored.set(eventId, { streamId, ordinal });
    let list = this.byStream.get(streamId);
    if (!list) this.byStream.set(streamId, (list = []));
    list.push(ordinal);
    return eventId;
  }

  /**
   * The inner store's answer when it has one, else ours. Offering it makes the SDK check for a
   * second resumer of a connected stream (409) and for unknown cursors (400); without it a
   * second resumer silently takes the stream over.
   */
  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    if (this.inner?.getStreamIdForEventId) return this.inner.getStreamIdForEventId(eventId);
    return this.stored.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, opts: { send: (eventId: string, message: M) => Promise<void> }): Promise<string> {
    const cursor = this.stored.get(lastEventId);
    // Released: the messages are gone; nothing to replay (the transport answers 404 anyway).
    if (!this.inner) return cursor?.streamId ?? '';
    const available = cursor === undefined ? undefined : this.countAfter(cursor);
    let replayed = 0;
    const streamId = await this.inner.replayEventsAfter(lastEventId, {
      send: async (eventId, message) => {
        replayed += 1;
        await opts.send(eventId, message);
      },
    });
    this.onReplay?.({ lastEventId, replayed, available });
    return streamId;
  }

  /** The store's position of an event id, or null when it never stored it. */
  ordinalOf(eventId: string): number | null {
    return this.stored.get(eventId)?.ordinal ?? null;
  }

  streamOf(eventId: string): string | null {
    return this.stored.get(eventId)?.streamId ?? null;
  }

  private countAfter(cursor: Stored): number {
    const list = this.byStream.get(cursor.streamId) ?? [];
    // Ordinals are ascending: binary search for the first one after the cursor.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] <= cursor.ordinal) lo = mid + 1;
      else hi = mid;
    }
    return list.length - lo;
  }
}
