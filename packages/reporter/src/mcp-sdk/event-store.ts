// An EventStore wrapper for the official MCP SDK: gives every stored event a per-session ordinal
// (string ids say nothing about order; the Doorwatch contract takes the ordinal instead) and
// counts what a replay sent against what the store held after the cursor.
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

  constructor(
    private readonly inner: EventStoreLike<M>,
    private readonly onReplay: (outcome: ReplayOutcome) => void,
  ) {}

  async storeEvent(streamId: string, message: M): Promise<string> {
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
    if (this.inner.getStreamIdForEventId) return this.inner.getStreamIdForEventId(eventId);
    return this.stored.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, opts: { send: (eventId: string, message: M) => Promise<void> }): Promise<string> {
    const cursor = this.stored.get(lastEventId);
    const available = cursor === undefined ? undefined : this.countAfter(cursor);
    let replayed = 0;
    const streamId = await this.inner.replayEventsAfter(lastEventId, {
      send: async (eventId, message) => {
        replayed += 1;
        await opts.send(eventId, message);
      },
    });
    this.onReplay({ lastEventId, replayed, available });
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
