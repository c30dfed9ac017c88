import { ApiError } from '@/lib/http/api-error';
import { componentLogger } from '@/lib/log/logger';

/**
 * A failed write means nothing was committed; the sender should retry later. Every database
 * failure on the write path is answered 503 + Retry-After (never 500), which the reporter and
 * Standard Webhooks senders retry with backoff.
 */
export function databaseUnavailable(err: unknown): ApiError {
  const detail = err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : String(err);
  componentLogger('ingest').error({ err: detail }, 'ingest write failed');
  return new ApiError(503, 'database_unavailable', 'the database cannot take the write right now; nothing from this request was stored, retry later', {
    'retry-after': '5',
  });
}
