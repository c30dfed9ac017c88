// The HTTP side of ingest, in the order a request is judged: content type (415), size (413),
// signature (401, one generic answer), rate (429), envelope (400, dead-lettered), events (200/207).
import type { Db } from '@/lib/db/client';
import { ApiError } from '@/lib/http/api-error';
import { readLimitedBytes } from '@/lib/http/read-limited-body';
import { SERVER_NAME } from '@/lib/contract/server-name';
import { activeSecrets } from '@/lib/store/servers/server-registry';
import { readWebhookHeaders } from './verify-signature';
import type { Rejection } from './rejection-recorder';
import { ZRejectionReason, type TRejectionReason } from '@/lib/contract/api/rejections';
import type { BodyExaminer } from './ingest-body';
import { bodyExaminer } from './ingest-threads';
import { Unauthorized } from './unauthorized';
import type { EventRateLimiter } from './rate-limiter';
import { isRetryableDatabaseError } from '@/lib/db/database-errors';
import { databaseUnavailable } from '@/lib/http/database-unavailable';
import { noteWriteRefused, noteWriteSucceeded } from '@/lib/db/write-refusal';
import { storeErrorAnswer } from '@/lib/http/store-error-answer';
import { StoreError } from '@/lib/store/store-error';
import type { IngestResult } from './ingest-events';

export const MAX_INGEST_BODY = { bytes: 1024 * 1024, hint: 'send at most 1,000 events and 1 MiB per request' };

/** Where refusals are counted (lib/ingest/rejection-recorder.ts); must be cheap and never throw. */
export type RejectionSink = (r: Rejection) => void;

/** The refusals other than 401 whose error code names their reason (413, 415, 429, the 503s; a full disk counts as the database's). */
const reasonOf = (code: string): TRejectionReason | undefined => {
  const parsed = ZRejectionReason.safeParse(code === 'database_full' ? 'database_unavailable' : code);
  return parsed.success ? parsed.data : undefined;
};

/** handleIngestRequest, counting every refusal (401 with its real reason, 413, 415, 429, 503) before it is answered. */
export async function handleIngestRequest(
  db: Db,
  limiter: EventRateLimiter,
  server: string,
  request: Request,
  reject: RejectionSink = () => undefined,
  examine: BodyExaminer = bodyExaminer(db),
): Promise<{ status: 200 | 207; body: IngestResult }> {
  try {
    const answer = await judgeIngestRequest(db, limiter, server, request, examine);
    // Noted here, in the request thread health runs in: the write may have run in an ingest thread.
    noteWriteSucceeded();
    return answer;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'database_full') noteWriteRefused('database_full');
    if (err instanceof ApiError) {
      const refusal =
        err instanceof Unauthorized ? { reason: err.reason, skewMs: err.skewMs } : { reason: reasonOf(err.code), skewMs: null };
      if (refusal.reason) reject({ server, reason: refusal.reason, at: Date.now(), skewMs: refusal.skewMs });
    }
    throw err;
  }
}

async function judgeIngestRequest(
  db: Db,
  limiter: EventRateLimiter,
  server: string,
  request: Request,
  examine: BodyExaminer,
): Promise<{ status: 200 | 207; body: IngestResult }> {
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw new ApiError(415, 'unsupported_media_type', 'send the batch as Content-Type: application/json');
  }
  const raw = await readLimitedBytes(request, MAX_INGEST_BODY);
  if (!SERVER_NAME.test(server)) throw new Unauthorized('unknown_server');
  const headers = readWebhookHeaders(request.headers);
  const secrets = await activeSecrets(db, server).catch((err) => {
    if (err instanceof StoreError) throw storeErrorAnswer(err);
    throw isRetryableDatabaseError(err) ? databaseUnavailable(err) : err;
  });
  // A name without an active secret is refused as unknown before anything else, so the count
  // lands in the unknown bucket and never under a name the caller made up.
  if (secrets.length === 0) throw new Unauthorized('unknown_server');
  if (!headers) throw new Unauthorized('missing_headers');

  // Signature, then envelope (ingest-body.ts); the rate counts the events of a readable envelope.
  const pending = await examine(server, raw, headers, secrets);
  const decision = limiter.take(server, Math.max(pending.eventCount, 1));
  if (!decision.allowed) {
    pending.release();
    throw new ApiError(429, 'rate_limited', `server "${server}" is over its ingest rate; retry after ${decision.retryAfterSeconds} s`, {
      'retry-after': String(decision.retryAfterSeconds),
    });
  }
  const result = await pending.store();
  return { status: result.rejected.length > 0 ? 207 : 200, body: result };
}
