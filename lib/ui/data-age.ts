// How fresh the page is, as one pure decision the top bar shows: the age of the newest thing
// that proved the data current (a stream heartbeat or change, or a successful refetch).
export type StreamState = 'connecting' | 'open' | 'down';
export type DataAgeTone = 'fresh' | 'amber' | 'red' | 'paused';

/** Older than this without proof of currency: amber. Three missed heartbeats (5 s each). */
export const AMBER_AFTER_MS = 15_000;
/** Older than this: red (the stream is down and the fallback refresh is failing too). */
export const RED_AFTER_MS = 60_000;

export interface DataAgeInput {
  ageMs: number | null;
  stream: StreamState;
  /** Auto-refresh turned off by the operator: nothing is expected to update. */
  off: boolean;
  /** The newest refetch failed. */
  lastFetchFailed: boolean;
  /** Doorwatch itself does not answer (lib/ui/connection.ts: reason 'unreachable'). */
  unreachable?: boolean;
}

export function dataAgeTone({ ageMs, stream, off, lastFetchFailed, unreachable = false }: DataAgeInput): DataAgeTone {
  if (off) return 'paused';
  // Doorwatch not answering is red at once, however recent the last data: every figure is as of then.
  if (unreachable) return 'red';
  if (ageMs === null) return stream === 'down' ? 'amber' : 'fresh';
  if (ageMs >= RED_AFTER_MS) return 'red';
  if (ageMs >= AMBER_AFTER_MS) return 'amber';
  // Stream gone and the fallback refresh failing: updates have stopped even if the last data is recent.
  if (stream === 'down' && lastFetchFailed) return 'amber';
  return 'fresh';
}

/** A server quiet this long is amber in the status strip ("last seen 2 min ago")… */
export const QUIET_AMBER_MS = 60_000;
/** …and red after this long. */
export const QUIET_RED_MS = 5 * 60_000;

export function lastSeenTone(ageMs: number | null): 'fresh' | 'amber' | 'red' {
  if (ageMs === null || ageMs >= QUIET_RED_MS) return 'red';
  return ageMs >= QUIET_AMBER_MS ? 'amber' : 'fresh';
}
