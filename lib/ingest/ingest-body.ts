// What ingest does with a body once its sender is known and its secrets are loaded: check the
// signature and read the envelope (examineBody), then store its events or dead-letter it
// (storeBody). The rate limit is decided between the two, by the request's thread
// (ingest-request.ts). These run on an ingest thread (ingest-thread.ts) or, without one, in the
// request's own thread: the same functions either way.
import type { Sql } from '@/lib/db/sql';
import { ApiError } from '@/lib/http/api-error';
import { utf8Text } from '@/lib/http/read-limited-body';
import { storeDeadLetters } from '@/lib/store/dead-letters';
import {
  ENVELOPE_FIELD_CODES,
  ZIngestEnvelope,
  MAX_EVENTS_PER_REQUEST,
  type BatchOrigin,
  type ReporterStatus,
} from '@/lib/contract/ingest-envelope';
import { classifyVerificationFailure, verifyWebhook, type WebhookHeaders } from './verify-signature';
import { isRetryableDatabaseError } from '@/lib/db/database-errors';
import { databaseUnavailable } from '@/lib/http/database-unavailable';
import { logUnstorable } from '@/lib/ingest/log-unstorable';
import { ingestEvents, type IngestResult } from './ingest-events';
import { Unauthorized } from './unauthorized';

export interface ExaminedBody {
  events: unknown[];
  reporter?: ReporterStatus;
  /** The server's version and instance, when the sender named them. */
  origin?: BatchOrigin;
  /** Why the envelope is unusable (the body is dead-lettered and answered 400), or null. */
  envelopeError: string | null;
  /** The 400's code: invalid_version / invalid_instance when only that field is wrong, else invalid_body. */
  envelopeCode?: string;
}

/** The code of a refused envelope: a field's own when every issue is about that one field. */
function envelopeCodeOf(paths: readonly PropertyKey[]): string {
  const fields = new Set(paths);
  if (fields.size !== 1) return 'invalid_body';
  const [field] = fields;
  return typeof field === 'string' && field in ENVELOPE_FIELD_CODES
    ? ENVELOPE_FIELD_CODES[field as keyof typeof ENVELOPE_FIELD_CODES]
    : 'invalid_body';
}

/** Verifies the signature (throws the generic 401) and reads the envelope; never touches the database. */
export function examineBody(raw: string, headers: WebhookHeaders, secrets: readonly string[]): ExaminedBody {
  if (!verifyWebhook(raw, headers, secrets)) {
    const { reason, skewMs } = classifyVerificationFailure(raw, headers, secrets);
    throw new Unauthorized(reason, skewMs);
  }
  try {
    const envelope = ZIngestEnvelope.safeParse(JSON.parse(raw));
    if (envelope.success) {
      const { events, reporter, version, instance } = envelope.data;
      return { events, reporter, origin: { version, instance }, envelopeError: null };
    }
    const issues = envelope.error.issues;
    return {
      events: [],
      envelopeError: issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
      envelopeCode: envelopeCodeOf(issues.map((i) => i.path[0] ?? '')),
    };
  } catch (err) {
    return { events: [], envelopeError: `body is not valid JSON: ${err instanceof Error ? err.message : err}` };
  }
}

/** Stores the examined body's events (200/207 result), or dead-letters an unusable body and throws its 400. */
export async function storeBody(sql: Sql, server: string, raw: string, body: ExaminedBody): Promise<IngestResult> {
  if (body.envelopeError !== null) {
    // Keep the raw body for operators: a sender bug is easier to fix when you can see what it sent.
    await storeDeadLetters(
      sql,
      [{ server, code: body.envelopeCode ?? 'invalid_body', message: body.envelopeError, eventIndex: null, eventId: null, payload: raw }],
      Date.now(),
    ).catch((err) => {
      // The body is refused either way; only a retryable failure may turn that into a 503.
      if (isRetryableDatabaseError(err)) throw databaseUnavailable(err);
      logUnstorable(`${server}: a refused body could not be dead-lettered`, err);
    });
    throw new ApiError(
      400,
      body.envelopeCode ?? 'invalid_body',
      `expected {"events": [1-${MAX_EVENTS_PER_REQUEST} events]}: ${body.envelopeError}`,
    );
  }
  return ingestEvents({ sql }, server, body.events, { reporter: body.reporter, origin: body.origin });
}

/** A body examined and held until the request thread has decided its rate limit. */
export interface PendingBody {
  eventCount: number;
  store(): Promise<IngestResult>;
  /** Forget it (refused by the rate limit). */
  release(): void;
}

/**
 * examineBody, then storeBody when asked: in this thread, or on an ingest thread (ingest-threads.ts),
 * which takes `raw` over (its buffer is transferred, not copied).
 */
export type BodyExaminer = (server: string, raw: Uint8Array, headers: WebhookHeaders, secrets: string[]) => Promise<PendingBody>;

export function inThreadExaminer(sql: Sql): BodyExaminer {
  return async (server, bytes, headers, secrets) => {
    const raw = utf8Text(bytes);
    const body = examineBody(raw, headers, secrets);
    return { eventCount: body.events.length, store: () => storeBody(sql, server, raw, body), release: () => undefined };
  };
}
