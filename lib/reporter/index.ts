export { createReporter, MAX_BODY_BYTES, MAX_EVENTS_PER_REQUEST } from './reporter';
export { newEventId, EVENT_ID_PATTERN } from './ids';
export { computeBackoffMs, parseRetryAfterMs } from './backoff';
export {
  ReporterError,
  type DropInfo,
  type DropReason,
  type FetchLike,
  type RejectedEvent,
  type Reporter,
  type ReporterErrorCode,
  type ReporterOptions,
  type ReporterStats,
  type ReportableEvent,
} from './types';
