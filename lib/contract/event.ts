/**
 * Event contract v1: the session-transition events MCP servers post to Doorwatch.
 * Field and type names are a public contract — external senders depend on them.
 */
import { z } from 'zod';
import { eventTimestampMs } from './timestamp';
import { dataBoundsProblem, jsonPreview } from './json-bounds';

export const EVENT_TYPES = [
  'session.opened',
  'upgrade.accepted',
  'upgrade.completed',
  'upgrade.rejected',
  'stream.dropped',
  'resume.requested',
  'resume.refused',
  'resume.accepted',
  'session.timeout',
  'session.closed',
  'resume.rejected',
  'session.abandoned',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

export const ZEventId = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1–128 characters of [A-Za-z0-9._:-]');

// C0/C1 control characters (NUL above all: PostgreSQL text cannot hold it, SQLite stores it and
// then no search finds it) are refused in every string that becomes a column.
function hasControlChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

export const ZToken = z
  .string()
  .min(1, 'must not be empty')
  .max(256, 'must be at most 256 characters')
  .refine((s) => !hasControlChars(s), { message: 'must not contain control characters (U+0000–U+001F, U+007F–U+009F)' });

export const ZTimestamp = z.string().refine((s) => eventTimestampMs(s) !== null, {
  message:
    'must be an RFC 3339 timestamp with fractional seconds, between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z, e.g. 2026-11-29T10:00:00.123Z',
});

const nonNegativeInt = z.int().min(0);

/** An SSE event id as the server wrote it: an integer (v1) or the string itself. */
const ZSseId = z.union([nonNegativeInt, z.string().min(1).max(256)]);

/**
 * A string SSE id says nothing about order, so the boundary rule needs the store's own position of
 * that event (`ordinal`, per token, increasing) instead of guessing from the string. Required with
 * a string id; for `resume.requested` it may be null: the store does not know that cursor.
 */
function requireOrdinalForString(field: 'eventId' | 'lastEventId', nullable: boolean) {
  return (d: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
    if (typeof d[field] !== 'string') return;
    if (d.ordinal === undefined || (!nullable && d.ordinal === null)) {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `a string ${field} needs data.ordinal, the store's position of that event${nullable ? ' (null if the store does not know it)' : ''}`,
      });
    }
  };
}

/** Fields shared by every event type. Unknown top-level fields are stripped (not rejected). */
export const ZEnvelope = z.object({
  id: ZEventId,
  token: ZToken,
  at: ZTimestamp,
  seq: nonNegativeInt.optional(),
});

const envelope = ZEnvelope.shape;

// `data` is a loose object everywhere so senders can attach extra diagnostics
// without breaking validation; types without required fields default it to {}.

export const ZSessionOpened = z.object({
  ...envelope,
  type: z.literal('session.opened'),
  data: z.looseObject({ previousToken: ZToken.optional() }).default({}),
});

export const ZUpgradeAccepted = z.object({
  ...envelope,
  type: z.literal('upgrade.accepted'),
  data: z.looseObject({ eventId: ZSseId, ordinal: nonNegativeInt.optional() }).superRefine(requireOrdinalForString('eventId', false)),
});

export const ZUpgradeCompleted = z.object({
  ...envelope,
  type: z.literal('upgrade.completed'),
  data: z.looseObject({}).default({}),
});

export const ZUpgradeRejected = z.object({
  ...envelope,
  type: z.literal('upgrade.rejected'),
  data: z.looseObject({ status: z.int() }),
});

export const ZStreamDropped = z.object({
  ...envelope,
  type: z.literal('stream.dropped'),
  data: z.looseObject({ reason: z.string().optional() }).default({}),
});

export const ZResumeRequested = z.object({
  ...envelope,
  type: z.literal('resume.requested'),
  // Required but nullable: a reconnect without Last-Event-ID must say so explicitly.
  data: z
    .looseObject({ lastEventId: z.union([z.int(), z.string().min(1).max(256)]).nullable(), ordinal: nonNegativeInt.nullable().optional() })
    .superRefine(requireOrdinalForString('lastEventId', true)),
});

export const ZResumeRefused = z.object({
  ...envelope,
  type: z.literal('resume.refused'),
  data: z.looseObject({ reason: z.string().optional() }).default({}),
});

export const ZResumeAccepted = z.object({
  ...envelope,
  type: z.literal('resume.accepted'),
  // `available`: how many events the store held after the cursor, so a lossy resume is visible.
  data: z.looseObject({ replayed: nonNegativeInt, available: nonNegativeInt.optional() }),
});

/** A resume the server turned down WITHOUT ending the session (not the terminal boundary refusal). */
export const ZResumeRejected = z.object({
  ...envelope,
  type: z.literal('resume.rejected'),
  data: z.looseObject({ status: z.int().min(400).max(599), reason: z.string().optional() }),
});

/** The server ended a session the client left without DELETE, after its idle time. */
export const ZSessionAbandoned = z.object({
  ...envelope,
  type: z.literal('session.abandoned'),
  data: z.looseObject({ idleMs: nonNegativeInt.optional() }).default({}),
});

export const ZSessionTimeout = z.object({
  ...envelope,
  type: z.literal('session.timeout'),
  data: z.looseObject({ idleMs: z.int().optional() }).default({}),
});

export const ZSessionClosed = z.object({
  ...envelope,
  type: z.literal('session.closed'),
  data: z.looseObject({ reason: z.string().optional() }).default({}),
});

export const EVENT_SCHEMAS = {
  'session.opened': ZSessionOpened,
  'upgrade.accepted': ZUpgradeAccepted,
  'upgrade.completed': ZUpgradeCompleted,
  'upgrade.rejected': ZUpgradeRejected,
  'stream.dropped': ZStreamDropped,
  'resume.requested': ZResumeRequested,
  'resume.refused': ZResumeRefused,
  'resume.accepted': ZResumeAccepted,
  'session.timeout': ZSessionTimeout,
  'session.closed': ZSessionClosed,
  'resume.rejected': ZResumeRejected,
  'session.abandoned': ZSessionAbandoned,
} as const satisfies Record<EventType, z.ZodType>;

export const ZEvent = z.discriminatedUnion('type', [
  ZSessionOpened,
  ZUpgradeAccepted,
  ZUpgradeCompleted,
  ZUpgradeRejected,
  ZStreamDropped,
  ZResumeRequested,
  ZResumeRefused,
  ZResumeAccepted,
  ZSessionTimeout,
  ZSessionClosed,
  ZResumeRejected,
  ZSessionAbandoned,
]);

/** A validated event (after defaults: `data` is always present). */
export type DoorwatchEvent = z.output<typeof ZEvent>;
/** What a sender may post (`data` optional for types without required fields). */
export type DoorwatchEventInput = z.input<typeof ZEvent>;

// ---------------------------------------------------------------------------
// Validation of one raw value, with machine-readable issue codes for ingest.

export type EventIssueCode = 'invalid_type' | 'missing_field' | 'invalid_field';

export interface EventIssue {
  code: EventIssueCode;
  /** Dotted field path, e.g. `data.eventId`; empty for the event itself. */
  path: string;
  /** Human-readable, names the field path. */
  message: string;
}

export type EventValidation =
  | { ok: true; event: DoorwatchEvent }
  | {
      ok: false;
      /** The raw `id` if it was a string (ingest reports it alongside the issues), else null. */
      id: string | null;
      issues: EventIssue[];
    };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

/** True when the value at `path` in `raw` is absent (as opposed to present but wrong). */
function isMissing(raw: unknown, path: readonly PropertyKey[]): boolean {
  let cur: unknown = raw;
  for (const key of path) {
    if (!isPlainObject(cur) && !Array.isArray(cur)) return false;
    cur = (cur as Record<PropertyKey, unknown>)[key];
    if (cur === undefined) return true;
  }
  return cur === undefined;
}

function toIssues(raw: unknown, issues: readonly z.core.$ZodIssue[]): EventIssue[] {
  return issues.map((issue) => {
    const path = formatPath(issue.path);
    const missing = path !== '' && isMissing(raw, issue.path);
    return {
      code: missing ? 'missing_field' : 'invalid_field',
      path,
      message: missing ? `${path} is required` : `${path || 'event'}: ${issue.message}`,
    };
  });
}

/**
 * Validate one raw value against the contract. Unknown `type` → `invalid_type`
 * (envelope fields are still checked so the sender sees every problem at once).
 */
export function validateEvent(raw: unknown): EventValidation {
  if (!isPlainObject(raw)) {
    return {
      ok: false,
      id: null,
      issues: [{ code: 'invalid_field', path: '', message: 'event: expected a JSON object' }],
    };
  }
  const id = typeof raw.id === 'string' ? raw.id : null;
  const type = raw.type;

  if (!isEventType(type)) {
    const typeIssue: EventIssue =
      type === undefined
        ? { code: 'missing_field', path: 'type', message: 'type is required' }
        : {
            code: 'invalid_type',
            path: 'type',
            // A bounded preview: `type` may be any value, nested thousands of levels deep.
            message: `type: unknown event type ${jsonPreview(type, 4, 200)}; expected one of ${EVENT_TYPES.join(', ')}`,
          };
    const envelopeResult = ZEnvelope.safeParse(raw);
    const rest = envelopeResult.success ? [] : toIssues(raw, envelopeResult.error.issues);
    return { ok: false, id, issues: [typeIssue, ...rest] };
  }

  // Bounded before anything serializes it (see json-bounds.ts).
  const bounds = raw.data === undefined ? null : dataBoundsProblem(raw.data);
  if (bounds !== null) {
    const envelopeResult = ZEnvelope.safeParse(raw);
    const rest = envelopeResult.success ? [] : toIssues(raw, envelopeResult.error.issues);
    return { ok: false, id, issues: [{ code: 'invalid_field', path: 'data', message: `data: ${bounds}` }, ...rest] };
  }
  // Parse an omitted `data` as {} so a missing required field is reported as
  // `data.eventId` rather than just `data`.
  const candidate = raw.data === undefined ? { ...raw, data: {} } : raw;
  const result = EVENT_SCHEMAS[type].safeParse(candidate);
  if (result.success) return { ok: true, event: result.data as DoorwatchEvent };
  return { ok: false, id, issues: toIssues(candidate, result.error.issues) };
}
