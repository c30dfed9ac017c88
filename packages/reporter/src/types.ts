import type { DoorwatchEvent } from './event.js';
import type { ReporterError } from './errors.js';

/** What report() takes: one contract event (`data` may be omitted for types without required fields). */
export type ReportableEvent = DoorwatchEvent;

/** Minimal fetch signature the reporter needs; global `fetch` (Node >= 18) satisfies it. */
export type FetchLike = (
  url: string,
  init: {
    method: 'POST';
    headers: Record<string, string>;
    body: string;
    signal: AbortSignal;
    redirect: 'manual';
  },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export type DropReason =
  /** The buffer exceeded maxBufferedEvents; the oldest unsent events were discarded. */
  | 'overflow'
  /** report() was called after close(). */
  | 'closed';

export type DropInfo = { reason: DropReason; count: number; eventIds: string[] };

export interface ReporterOptions {
  /** Base URL of Doorwatch, e.g. `https://doorwatch.example.com`. */
  url: string;
  /** Server name as registered in Doorwatch (the `{server}` path segment). */
  server: string;
  /** The server's `whsec_...` signing secret. */
  secret: string;
  /** Events per request, 1..1000. Default 500. */
  maxBatchSize?: number;
  /** Upper bound on a request body in bytes (the API limit is 1 MiB). Default 1,000,000. */
  maxBatchBytes?: number;
  /** Longest an event waits in the buffer before a (partial) batch is sent. Default 200 ms. */
  flushIntervalMs?: number;
  /** Unacknowledged events kept in memory (buffer + batch awaiting retry). Default 10,000. */
  maxBufferedEvents?: number;
  /** Retries per batch after the first attempt. Default 8. */
  maxRetries?: number;
  /** Give up on a batch once retrying would go past this long after its first attempt. Default 5 min. */
  retryDeadlineMs?: number;
  /** Backoff base for full-jitter exponential backoff. Default 500 ms. */
  baseBackoffMs?: number;
  /** Backoff cap (Retry-After may exceed it). Default 30 s. */
  maxBackoffMs?: number;
  /** Per-attempt timeout (headers and body). A timeout is retried like a network error. Default 10 s. */
  requestTimeoutMs?: number;
  /** close() gives up on what is still unacknowledged after this long. Default 10 s. */
  closeTimeoutMs?: number;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /** Terminal delivery problems (never transient ones that will be retried). */
  onError?: (error: ReporterError) => void;
  /** Dropped events, coalesced per tick. If absent, drops are reported through onError('events_dropped'). */
  onDrop?: (info: DropInfo) => void;
  /**
   * Names this reporter process in Doorwatch, which shows per server what its reporters lost
   * (`dropped` and `failed`, sent with every batch). 1-128 of `A-Za-z0-9._:-`.
   * Default `<hostname>-<pid>-<random>`.
   */
  instance?: string;
  /**
   * The server's version (build), sent with every batch: Doorwatch records it on each session and
   * keeps per-version counts ("naive since v2.3.1"). 1-64 of `A-Za-z0-9._+:/-`, starting with a
   * letter or digit. Default: none (sessions stay unversioned).
   */
  version?: string;
  /** `webhook-id` factory (one per batch). Default `msg_<uuid>`. */
  idFactory?: () => string;
  /** Random source in [0,1) for jitter; for tests. */
  random?: () => number;
}

export interface ReporterStats {
  /** report() calls. */
  reported: number;
  /** Events that went out in at least one HTTP attempt (counted once per event). */
  sent: number;
  /** Committed as new events. */
  accepted: number;
  /** Committed earlier (same event id already stored). */
  duplicates: number;
  /** Refused: per-event (207), whole batch (non-retryable 4xx), or invalid locally. */
  rejected: number;
  /** Discarded without being committed: buffer overflow or report() after close(). */
  dropped: number;
  /** Given up on after retries ran out or close() timed out (may or may not have been committed). */
  failed: number;
  /** HTTP attempts beyond each batch's first. */
  retries: number;
  /** Events buffered or in an unacknowledged batch. */
  pendingEvents: number;
  /** Requests currently on the wire (0 or 1). */
  inFlightBatches: number;
}

export interface Reporter {
  /** Buffer one event. Never throws; returns false if the event was refused (invalid, or after close). */
  report(event: ReportableEvent): boolean;
  /** Resolves when every event reported before the call is acknowledged, rejected, dropped or given up on. */
  flush(): Promise<void>;
  /** Stop accepting events, send what is left (bounded by closeTimeoutMs), stop all timers. Idempotent. */
  close(): Promise<void>;
  stats(): ReporterStats;
}
