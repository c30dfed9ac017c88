/**
 * Doorwatch's event contract v1 as plain TypeScript types (the app validates the same shape with
 * zod in lib/contract/event.ts; a unit test there keeps the two assignable both ways).
 * Field and type names are a public contract.
 */

export type EventType =
  | 'session.opened'
  | 'upgrade.accepted'
  | 'upgrade.completed'
  | 'upgrade.rejected'
  | 'stream.dropped'
  | 'resume.requested'
  | 'resume.refused'
  | 'resume.accepted'
  | 'session.timeout'
  | 'session.closed'
  | 'resume.rejected'
  | 'session.abandoned';

/** Fields every event carries. */
export interface EventEnvelope {
  /** 1-128 of `A-Za-z0-9._:-`; generate once with newEventId() and keep it across retries. */
  id: string;
  /** The session token (1-256 characters). */
  token: string;
  /** RFC 3339 with fractional seconds, e.g. `new Date().toISOString()`. */
  at: string;
  /** Optional non-negative integer: orders events of one token that share a timestamp. */
  seq?: number;
}

/** `data` is open: extra diagnostics are kept, not rejected. */
type Data<Fields> = Fields & { [key: string]: unknown };

type Event<Type extends EventType, Fields> = EventEnvelope & { type: Type; data: Data<Fields> };
/** Types whose `data` has no required field may omit it. */
type EventWithOptionalData<Type extends EventType, Fields> = EventEnvelope & { type: Type; data?: Data<Fields> };

export type SessionOpenedEvent = EventWithOptionalData<'session.opened', { previousToken?: string }>;
/**
 * `eventId`: the SSE id of the `upgrade-accepted` event as written. A string id needs `ordinal`: the
 * store's position of that event in the session (integers that grow with every stored event).
 */
export type UpgradeAcceptedEvent = Event<'upgrade.accepted', { eventId: number | string; ordinal?: number }>;
export type UpgradeCompletedEvent = EventWithOptionalData<'upgrade.completed', Record<never, never>>;
export type UpgradeRejectedEvent = Event<'upgrade.rejected', { status: number }>;
export type StreamDroppedEvent = EventWithOptionalData<'stream.dropped', { reason?: string }>;
/**
 * `lastEventId` is required but nullable: a reconnect without Last-Event-ID says so explicitly. A
 * string cursor needs `ordinal`: the store's position of that event, or null if the store does not know it.
 */
export type ResumeRequestedEvent = Event<'resume.requested', { lastEventId: number | string | null; ordinal?: number | null }>;
export type ResumeRefusedEvent = EventWithOptionalData<'resume.refused', { reason?: string }>;
/** `available`: how many events the store held after the cursor (a resume replaying fewer is lossy). */
export type ResumeAcceptedEvent = Event<'resume.accepted', { replayed: number; available?: number }>;
/** A resume turned down without ending the session (400 unknown cursor, 404 ended session, 409 already connected). */
export type ResumeRejectedEvent = Event<'resume.rejected', { status: number; reason?: string }>;
/** The server ended a session its client left without DELETE. */
export type SessionAbandonedEvent = EventWithOptionalData<'session.abandoned', { idleMs?: number }>;
export type SessionTimeoutEvent = EventWithOptionalData<'session.timeout', { idleMs?: number }>;
export type SessionClosedEvent = EventWithOptionalData<'session.closed', { reason?: string }>;

/** One event as a sender posts it. */
export type DoorwatchEvent =
  | SessionOpenedEvent
  | UpgradeAcceptedEvent
  | UpgradeCompletedEvent
  | UpgradeRejectedEvent
  | StreamDroppedEvent
  | ResumeRequestedEvent
  | ResumeRefusedEvent
  | ResumeAcceptedEvent
  | SessionTimeoutEvent
  | SessionClosedEvent
  | ResumeRejectedEvent
  | SessionAbandonedEvent;

/** What one reporter instance lost on its side, sent with every batch. Counts only grow. */
export interface ReporterStatus {
  /** 1-128 of `A-Za-z0-9._:-`. */
  instance: string;
  /** Events discarded before sending (buffer full, or reported after close). */
  dropped: number;
  /** Events given up on after retries ran out or close() timed out. */
  failed: number;
}

/** The body of `POST /api/v1/ingest/{server}`. */
export interface IngestEnvelope {
  events: DoorwatchEvent[];
  reporter?: ReporterStatus;
  /** The server's version (build) that served these events. */
  version?: string;
  /** The server process or replica that sent them. */
  instance?: string;
}
