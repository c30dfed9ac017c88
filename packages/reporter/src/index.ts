export { createReporter } from './reporter.js';
export { MAX_BODY_BYTES, MAX_EVENTS_PER_REQUEST } from './limits.js';
export { newEventId, EVENT_ID_PATTERN } from './ids.js';
export { computeBackoffMs, parseRetryAfterMs } from './backoff.js';
export { ReporterError, type RejectedEvent, type ReporterErrorCode } from './errors.js';
export type { DropInfo, DropReason, FetchLike, Reporter, ReporterOptions, ReporterStats, ReportableEvent } from './types.js';
export type {
  DoorwatchEvent,
  EventEnvelope,
  EventType,
  IngestEnvelope,
  ReporterStatus,
  ResumeAcceptedEvent,
  ResumeRefusedEvent,
  ResumeRejectedEvent,
  ResumeRequestedEvent,
  SessionAbandonedEvent,
  SessionClosedEvent,
  SessionOpenedEvent,
  SessionTimeoutEvent,
  StreamDroppedEvent,
  UpgradeAcceptedEvent,
  UpgradeCompletedEvent,
  UpgradeRejectedEvent,
} from './event.js';
