// One subscription to the change feed for every open change stream of this process. Changes are
// coalesced once (at most one message per COALESCE_MS), encoded once, and the same bytes are handed
// to every stream; one heartbeat timer serves them all. With a thousand open pages that is one
// JSON.stringify and one timer per message instead of a thousand of each, and the queued messages
// share one buffer.
import { processSingleton } from '@/lib/config/process-state';
import { boundedChange, mergeChanges, type Change } from './change';
import { subscribeChanges } from './change-feed';

export const COALESCE_MS = 250;
export const HEARTBEAT_MS = 5000;

/** What the hub hands each stream: one encoded SSE frame, shared by all of them. */
export type FrameSink = (frame: Uint8Array) => void;

interface Hub {
  sinks: Set<FrameSink>;
  pending: Change[];
  flushTimer: ReturnType<typeof setTimeout> | null;
  heartbeat: ReturnType<typeof setInterval> | null;
  unsubscribe: (() => void) | null;
  /** Streams dropped because their client stopped reading, since the process started. */
  dropped: number;
}

const encoder = new TextEncoder();
export const frame = (event: string, data: unknown) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

const hub = (): Hub =>
  processSingleton('doorwatchChangeFanout', () => ({
    sinks: new Set(),
    pending: [],
    flushTimer: null,
    heartbeat: null,
    unsubscribe: null,
    dropped: 0,
  }));

function broadcast(h: Hub, bytes: Uint8Array): void {
  // A copy: a sink may leave (or be dropped) while we go round.
  for (const sink of [...h.sinks]) sink(bytes);
}

function flush(h: Hub): void {
  h.flushTimer = null;
  if (h.pending.length === 0) return;
  const merged = boundedChange(mergeChanges(h.pending));
  h.pending = [];
  broadcast(h, frame('change', { ...merged, at: Date.now() }));
}

/** Adds a stream; returns the function that removes it. The feed is listened to while any stream is open. */
export function joinFanout(sink: FrameSink): () => void {
  const h = hub();
  h.sinks.add(sink);
  h.unsubscribe ??= subscribeChanges((change) => {
    h.pending.push(change);
    h.flushTimer ??= setTimeout(() => flush(h), COALESCE_MS);
  });
  h.heartbeat ??= setInterval(() => broadcast(h, frame('heartbeat', { at: Date.now() })), HEARTBEAT_MS);
  return () => {
    if (!h.sinks.delete(sink) || h.sinks.size > 0) return;
    h.unsubscribe?.();
    h.unsubscribe = null;
    if (h.heartbeat) clearInterval(h.heartbeat);
    h.heartbeat = null;
    if (h.flushTimer) clearTimeout(h.flushTimer);
    h.flushTimer = null;
    h.pending = [];
  };
}

/** Counts a stream dropped for not reading (change-stream.ts), for /metrics. */
export function noteDropped(): void {
  hub().dropped++;
}

/** This process's streams for /metrics: open now, and dropped since start. */
export function streamFigures(): { open: number; dropped: number } {
  const h = hub();
  return { open: h.sinks.size, dropped: h.dropped };
}
