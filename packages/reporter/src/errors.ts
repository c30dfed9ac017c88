export type RejectedEvent = { index: number; id: string; code: string; message: string };

export type ReporterErrorCode =
  /** report() got something that is not a sendable event; it was not buffered. */
  | 'invalid_event'
  /** 200/207 with a non-empty `rejected` list: those events were dead-lettered by the server. */
  | 'events_rejected'
  /** The whole batch was refused with a non-retryable status (400/401/413/415, other 4xx, 3xx). */
  | 'batch_rejected'
  /** Retries (count or deadline) ran out; the batch's events are given up on. */
  | 'retries_exhausted'
  /** close() hit closeTimeoutMs; whatever was still buffered or in flight is given up on. */
  | 'close_timeout'
  /** Events were dropped (only emitted through onError when no onDrop callback is configured). */
  | 'events_dropped'
  /** A bug in the reporter itself; it keeps going. */
  | 'internal';

/** A terminal delivery problem, passed to onError. */
export class ReporterError extends Error {
  readonly code: ReporterErrorCode;
  /** HTTP status for batch_rejected / retries_exhausted (last attempt), when there was a response. */
  readonly status?: number;
  /** Error code from the server's `{"error":{"code"}}` body, when present. */
  readonly serverCode?: string;
  /** Ids of the events this error is about. */
  readonly eventIds: string[];
  /** Per-event rejections (events_rejected only). */
  readonly rejected?: RejectedEvent[];

  constructor(
    code: ReporterErrorCode,
    message: string,
    details: { status?: number; serverCode?: string; eventIds?: string[]; rejected?: RejectedEvent[]; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ReporterError';
    this.code = code;
    this.status = details.status;
    this.serverCode = details.serverCode;
    this.eventIds = details.eventIds ?? [];
    this.rejected = details.rejected;
  }
}
