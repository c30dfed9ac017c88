// The ingest service: validate each event against the contract, store the valid ones and
// dead-letter the rest in one transaction, and report what happened per event.
import { validateEvent, type DoorwatchEvent } from '@/lib/contract/event';
import { deadlockThresholdMs } from '@/lib/config/settings';
import type { Db } from '@/lib/db/client';
import { ApiError } from '@/lib/http/api-error';
import type { DeadLetter } from '@/lib/store/dead-letters';
import type { ReporterStatus } from '@/lib/contract/ingest-envelope';
import { storeBatch } from './store-batch';
import { databaseUnavailable } from './database-unavailable';

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
  db: Db,
  server: string,
  rawEvents: readonly unknown[],
  options: { now?: number; reporter?: ReporterStatus } = {},
): Promise<IngestResult> {
  const now = options.now ?? Date.now();
  const valid: DoorwatchEvent[] = [];
  const rejected: RejectedEvent[] = [];
  const deadLetters: DeadLetter[] = [];
  rawEvents.forEach((raw, index) => {
    const result = validateEvent(raw);
    if (result.ok) {
      valid.push(result.event);
      return;
    }
    const first = result.issues[0];
    const message = result.issues.map((i) => i.message).join('; ');
    rejected.push({ index, id: result.id, code: first.code, message });
    deadLetters.push({ server, code: first.code, message, eventIndex: index, eventId: result.id, payload: JSON.stringify(raw) ?? 'undefined' });
  });
  try {
    const stored = await storeBatch(db.sql, server, valid, { now, deadlockThresholdMs: deadlockThresholdMs(), deadLetters, reporter: options.reporter });
    return { accepted: stored.accepted, duplicates: stored.duplicates, rejected };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw databaseUnavailable(err);
  }
}
