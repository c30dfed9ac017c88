// The HTTP side of ingest, in the order a request is judged: content type (415), size (413),
// signature (401, one generic answer), rate (429), envelope (400, dead-lettered), events (200/207).
import type { Db } from '@/lib/db/client';
import { ApiError } from '@/lib/http/api-error';
import { readLimitedBody } from '@/lib/http/read-limited-body';
import { SERVER_NAME } from '@/lib/store/servers/server-secret';
import { activeSecrets } from '@/lib/store/servers/server-registry';
import { classifyVerificationFailure, readWebhookHeaders, verifyWebhook } from './verify-signature';
import type { Rejection } from './rejection-recorder';
import type { TRejectionReason } from '@/lib/contract/api/rejections';
import type { EventRateLimiter } from './rate-limiter';
import { storeDeadLetters } from '@/lib/store/dead-letters';
import { databaseUnavailable, isRetryableDatabaseError, logUnstorable } from './database-unavailable';
import { ingestEvents, type IngestResult } from './ingest-events';
import { ZIngestEnvelope, MAX_EVENTS_PER_REQUEST, type ReporterStatus } from '@/lib/contract/ingest-envelope';

export const MAX_INGEST_BODY = { bytes: 1024 * 1024, hint: 'send at most 1,000 events and 1 MiB per request' };

/** Where refusals are counted (lib/ingest/rejection-recorder.ts); must be cheap and never throw. */
export type RejectionSink = (r: Rejection) => void;

const REASON_BY_STATUS: Partial<Record<number, TRejectionReason>> = {
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'database_unavailable',
};

/** handleIngestRequest, counting every refusal (401 with its real reason, 413, 415, 429, 503) before it is answered. */
export async function handleIngestRequest(
  db: Db,
  limiter: EventRateLimiter,
  server: string,
  request: Request,
  reject: RejectionSink = () => undefined,
): Promise<{ status: 200 | 207; body: IngestResult }> {
  try {
    return await judgeIngestRequest(db, limiter, server, request);
  } catch (err) {
    if (err instanceof ApiError) {
      const refusal =
        err instanceof Unauthorized ? { reason: err.reason, skewMs: err.skewMs } : { reason: REASON_BY_STATUS[err.status], skewMs: null };
      if (refusal.reason) reject({ server, reason: refusal.reason, at: Date.now(), skewMs: refusal.skewMs });
    }
    throw err;
  }
}

/** The generic 401 the sender sees, carrying the reason only operators see. */
class Unauthorized extends ApiError {
  constructor(
    readonly reason: TRejectionReason,
    readonly skewMs: number | null = null,
  ) {
    super(
      401,
      'unauthorized',
      'signature verification failed: check the server name, its whsec_ secret, and the sender clock (webhook-timestamp within 5 minutes)',
    );
  }
}

async function judgeIngestRequest(
  db: Db,
  limiter: EventRateLimiter,
  server: string,
  request: Request,
): Promise<{ status: 200 | 207; body: IngestResult }> {
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw new ApiError(415, 'unsupported_media_type', 'send the batch as Content-Type: application/json');
  }
  const raw = await readLimitedBody(request, MAX_INGEST_BODY);
  if (!SERVER_NAME.test(server)) throw new Unauthorized('unknown_server');
  const headers = readWebhookHeaders(request.headers);
  const secrets = await activeSecrets(db, server).catch((err) => {
    throw isRetryableDatabaseError(err) ? databaseUnavailable(err) : err;
  });
  // A name without an active secret is refused as unknown before anything else, so the count
  // lands in the unknown bucket and never under a name the caller made up.
  if (secrets.length === 0) throw new Unauthorized('unknown_server');
  if (!headers) throw new Unauthorized('missing_headers');
  if (!verifyWebhook(raw, headers, secrets)) {
    const { reason, skewMs } = classifyVerificationFailure(raw, headers, secrets);
    throw new Unauthorized(reason, skewMs);
  }

  let parsed: unknown;
  let envelopeError: string | null = null;
  let events: unknown[] = [];
  let reporter: ReporterStatus | undefined;
  try {
    parsed = JSON.parse(raw);
    const envelope = ZIngestEnvelope.safeParse(parsed);
    if (envelope.success) ({ events, reporter } = envelope.data);
    else envelopeError = envelope.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
  } catch (err) {
    envelopeError = `body is not valid JSON: ${err instanceof Error ? err.message : err}`;
  }

  const decision = limiter.take(server, Math.max(events.length, 1));
  if (!decision.allowed) {
    throw new ApiError(429, 'rate_limited', `server "${server}" is over its ingest rate; retry after ${decision.retryAfterSeconds} s`, {
      'retry-after': String(decision.retryAfterSeconds),
    });
  }

  if (envelopeError !== null) {
    // Keep the raw body for operators: a sender bug is easier to fix when you can see what it sent.
    await storeDeadLetters(
      db.sql,
      [{ server, code: 'invalid_body', message: envelopeError, eventIndex: null, eventId: null, payload: raw }],
      Date.now(),
    ).catch((err) => {
      // The body is refused either way; only a retryable failure may turn that into a 503.
      if (isRetryableDatabaseError(err)) throw databaseUnavailable(err);
      logUnstorable(`${server}: a refused body could not be dead-lettered`, err);
    });
    throw new ApiError(400, 'invalid_body', `expected {"events": [1-${MAX_EVENTS_PER_REQUEST} events]}: ${envelopeError}`);
  }

  const result = await ingestEvents(db, server, events, { reporter });
  return { status: result.rejected.length > 0 ? 207 : 200, body: result };
}
