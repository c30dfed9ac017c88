// The event store of one /mcp session, so a client whose stream drops can resume with
// Last-Event-ID. Memory is bounded twice: each stream keeps only its newest events, and the session
// keeps only its most recently written streams. A cursor older than what a stream still holds is
// answered as unknown (the SDK's 400), never with a replay that silently skips the gap: the client
// then knows it must start over instead of believing it has everything.
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface EventStoreBounds {
  /** Newest events kept per stream (older ones are dropped first). */
  eventsPerStream: number;
  /** Streams kept per session (the least recently written is dropped first). */
  streams: number;
}

/** A tool answer is one or a few events per request stream; the standalone GET stream gets the rest. */
export const DEFAULT_EVENT_STORE_BOUNDS: EventStoreBounds = { eventsPerStream: 100, streams: 32 };

interface Held {
  seq: number;
  message: JSONRPCMessage;
}

interface Stream {
  /** Sequence number of the next event on this stream (the first is 1). */
  next: number;
  events: Held[];
}

// `|` never occurs in the SDK's stream ids (UUIDs and `_GET_stream`).
const SEPARATOR = '|';

function parseEventId(eventId: EventId): { streamId: StreamId; seq: number } | null {
  const at = eventId.lastIndexOf(SEPARATOR);
  if (at <= 0) return null;
  const seq = Number(eventId.slice(at + 1));
  return Number.isSafeInteger(seq) && seq > 0 ? { streamId: eventId.slice(0, at), seq } : null;
}

export class BoundedEventStore implements EventStore {
  // Map order is write recency: a write moves its stream to the end.
  private readonly streams = new Map<StreamId, Stream>();

  constructor(private readonly bounds: EventStoreBounds = DEFAULT_EVENT_STORE_BOUNDS) {
    if (!(bounds.eventsPerStream >= 1 && bounds.streams >= 1)) throw new RangeError('event store bounds must be at least 1');
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    let stream = this.streams.get(streamId);
    if (stream) this.streams.delete(streamId);
    else stream = { next: 1, events: [] };
    this.streams.set(streamId, stream);
    const seq = stream.next++;
    stream.events.push({ seq, message });
    if (stream.events.length > this.bounds.eventsPerStream) stream.events.shift();
    while (this.streams.size > this.bounds.streams) this.streams.delete(this.streams.keys().next().value!);
    return `${streamId}${SEPARATOR}${seq}`;
  }

  /** The cursor's stream while the events after it are all still held; else undefined (the SDK answers 400). */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.resumable(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const cursor = this.resumable(lastEventId);
    if (!cursor) return '';
    for (const e of cursor.stream.events) {
      if (e.seq > cursor.seq) await send(`${cursor.streamId}${SEPARATOR}${e.seq}`, e.message);
    }
    return cursor.streamId;
  }

  /** Events held, over every stream (for tests and the benchmarks of memory). */
  get size(): number {
    let n = 0;
    for (const s of this.streams.values()) n += s.events.length;
    return n;
  }

  private resumable(eventId: EventId): { streamId: StreamId; seq: number; stream: Stream } | null {
    const parsed = parseEventId(eventId);
    const stream = parsed ? this.streams.get(parsed.streamId) : undefined;
    if (!parsed || !stream || parsed.seq >= stream.next) return null;
    // Every event after the cursor must still be held: the oldest held is at most cursor + 1.
    const oldest = stream.events[0]?.seq ?? stream.next;
    return oldest <= parsed.seq + 1 ? { ...parsed, stream } : null;
  }
}
