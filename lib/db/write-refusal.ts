// Whether this instance's last write was refused because the database's disk is full, for health
// and the dashboard. Reads keep working on a full disk, so a ping cannot tell; the write path
// notes each refusal and each success here (in the request thread: ingest threads report theirs
// through the request thread's answer). The state clears at the next ingest batch stored: senders
// retry every refused batch, so once space is freed the first retry clears it.
import { processSlot } from '@/lib/config/process-state';

export interface WriteRefusal {
  code: 'database_full';
  /** First refusal since the last successful write (epoch ms). */
  since: number;
  /** Latest refusal (epoch ms). */
  last: number;
}

const slot = processSlot<WriteRefusal | null>('doorwatchWriteRefusal');

export function noteWriteRefused(code: WriteRefusal['code'], now = Date.now()): void {
  const current = slot.get();
  slot.set({ code, since: current?.since ?? now, last: now });
}

export function noteWriteSucceeded(): void {
  if (slot.get()) slot.set(null);
}

/** The standing refusal, or null when the last write succeeded (or none was refused). */
export function writeRefusal(): WriteRefusal | null {
  return slot.get() ?? null;
}
