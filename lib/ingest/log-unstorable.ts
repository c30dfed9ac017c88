import { componentLogger } from '@/lib/log/logger';
import { databaseErrorLine } from '@/lib/db/database-errors';

/** Logs a database failure no retry can cure (the caller answers it as a data error). */
export function logUnstorable(what: string, err: unknown): string {
  const detail = databaseErrorLine(err);
  componentLogger('ingest').error({ err: detail }, what);
  return detail;
}
