// The ingest service: validate each event against the contract, store the valid ones and
// dead-letter the rest in one transaction, and report what happened per event.
import { validateEvent, type DoorwatchEvent } from '@/lib/contract/event';
import { jsonPreview } from '@/lib/contract/json-bounds';
import { deadlockThresholdMs } from '@/lib/config/settings';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';
import type { Db } from '@/lib/db/client';
import { ApiError } from '@/lib/http/api-error';
import type { DeadLetter } from '@/lib/store/dead-letters';
import type { BatchOrigin, ReporterStatus } from '@/lib/contract/ingest-envelope';
import { storeBatch, type StoreOptions, type StoreResult } from './store-batch';
import { isRetryableDatabaseError } from '@/lib/db/database-errors';
import { databaseUnavailable } from '@/lib/http/database-unavailable';
import { logUnstorable } from '@/lib/ingest/log-unstorable';

export interface RejectedEvent {
  index: number;
  id: string | null;
  code: string;
  message: string;
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: RejectedEvent[];
}

export async function ingestEvents(
  db: Pick<Db, 'sql'>,
  server: string,
  rawEvents: readonly unknown[],
  options: { now?: number; reporter?: ReporterStatus; origin?: BatchOrigin } = {},
): Promise<IngestResult> {
  const now = options.now ?? Date.now();
  // A caller that sets now (tests, benches) sets the stamp with it.
  const writtenAt = options.now ?? doorwatchNow();
  const valid: { index: number; event: DoorwatchEvent }[] = [];
  const rejected: RejectedEvent[] = [];
  const deadLetters: DeadLetter[] = [];
  const reject = (index: number, id: string | null, code: string, message: string, raw: unknown) => {
    rejected.push({ index, id, code, message });
    // A bounded, safely serialized preview: the raw value may be nested thousands of levels deep.
    deadLetters.push({ server, code, message, eventIndex: index, eventId: id, payload: jsonPreview(raw) });
  };
  rawEvents.forEach((raw, index) => {
    const result = validateEvent(raw);
    if (result.ok) valid.push({ index, event: result.event });
    else reject(index, result.id, result.issues[0].code, result.issues.map((i) => i.message).join('; '), raw);
  });
  const store = (events: DoorwatchEvent[], letters: readonly DeadLetter[]) =>
    storeBatch(db.sql, server, events, {
      now,
      writtenAt,
      floorAtDatabaseClock: options.now === undefined,
      deadlockThresholdMs: deadlockThresholdMs(),
      deadLetters: letters,
      reporter: options.reporter,
      origin: options.origin,
    } satisfies StoreOptions);
  try {
    const stored = await store(
      valid.map((v) => v.event),
      deadLetters,
    );
    return { accepted: stored.accepted, duplicates: stored.duplicates, rejected };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (isRetryableDatabaseError(err)) throw databaseUnavailable(err);
    logUnstorable(`${server}: a batch failed with a data error; storing its events one by one`, err);
  }
  // A value the database refused that validation let through: a retry would fail the same way,
  // so find the culprits one event at a time, store the rest and dead-letter those (never 503
  // forever for a poison event). Storing is idempotent, so this path is safe to repeat.
  const totals: StoreResult = { accepted: 0, duplicates: 0 };
  for (const { index, event } of valid) {
    try {
      const one = await store([event], []);
      totals.accepted += one.accepted;
      totals.duplicates += one.duplicates;
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (isRetryableDatabaseError(err)) throw databaseUnavailable(err);
      reject(
        index,
        event.id,
        'unstorable',
        `the database refused this event: ${logUnstorable(`${server}: event ${event.id} refused`, err)}`,
        event,
      );
    }
  }
  try {
    await store([], deadLetters);
  } catch (err) {
    if (isRetryableDatabaseError(err)) throw databaseUnavailable(err);
    logUnstorable(`${server}: dead letters could not be stored`, err);
  }
  rejected.sort((a, b) => a.index - b.index);
  return { ...totals, rejected };
}
