// A database failure a retry can cure (lib/db/database-errors.ts decides which), as the answer senders retry.
import { componentLogger } from '@/lib/log/logger';
import { databaseErrorLine } from '@/lib/db/database-errors';
import { ApiError } from './api-error';

/**
 * A failed write means nothing was committed; the sender should retry later. Answered 503 +
 * Retry-After (never 500), which the reporter and Standard Webhooks senders retry with backoff.
 */
export function databaseUnavailable(err: unknown): ApiError {
  componentLogger('ingest').error({ err: databaseErrorLine(err) }, 'database unavailable');
  return new ApiError(
    503,
    'database_unavailable',
    'the database cannot take the request right now; nothing from this request was stored, retry later',
    {
      'retry-after': '5',
    },
  );
}
