// A database failure a retry can cure (lib/db/database-errors.ts decides which), as the answer senders retry.
import { componentLogger } from '@/lib/log/logger';
import { databaseErrorLine, isDatabaseFull } from '@/lib/db/database-errors';
import { noteWriteRefused } from '@/lib/db/write-refusal';
import { ApiError } from './api-error';

/**
 * A failed write means nothing was committed; the sender should retry later. Answered 503 +
 * Retry-After (never 500), which the reporter and Standard Webhooks senders retry with backoff.
 * A full disk gets its own code (`database_full`): only an operator freeing space cures it, so the
 * sender waits longer, and health reports it (lib/db/write-refusal.ts). `component` names who hit
 * it in the log line (ingest, or the route wrapper for other routes).
 */
export function databaseUnavailable(err: unknown, component = 'ingest'): ApiError {
  if (isDatabaseFull(err)) {
    noteWriteRefused('database_full');
    componentLogger(component).error({ err: databaseErrorLine(err) }, 'database full: writes refused until disk space is freed');
    return new ApiError(
      503,
      'database_full',
      "the database's disk is full; nothing from this request was stored, retry later (an operator must free disk space)",
      { 'retry-after': '10' },
    );
  }
  componentLogger(component).error({ err: databaseErrorLine(err) }, 'database unavailable');
  return new ApiError(
    503,
    'database_unavailable',
    'the database cannot take the request right now; nothing from this request was stored, retry later',
    {
      'retry-after': '5',
    },
  );
}
