// Where every reported event ends up (the counters behind stats()), and the callbacks that tell
// the caller about losses. The dropped/failed totals also travel in every request body, so
// Doorwatch shows per server what its reporters lost.
import { ReporterError } from './errors.js';
import type { ReporterStatus } from './event.js';
import type { DropInfo, DropReason, ReporterOptions, ReporterStats } from './types.js';

/** The counters of stats() that this module owns (the rest describe the buffer and the wire). */
export type Counts = Omit<ReporterStats, 'pendingEvents' | 'inFlightBatches'>;

export class LossAccounting {
  readonly counts: Counts = { reported: 0, sent: 0, accepted: 0, duplicates: 0, rejected: 0, dropped: 0, failed: 0, retries: 0 };
  private dropNotes: Map<DropReason, string[]> | null = null;

  constructor(
    private readonly instance: string,
    private readonly callbacks: Pick<ReporterOptions, 'onError' | 'onDrop'>,
  ) {}

  /** The loss counts as sent in the envelope (a snapshot; Doorwatch keeps the largest seen). */
  status(): ReporterStatus {
    return { instance: this.instance, dropped: this.counts.dropped, failed: this.counts.failed };
  }

  /** A throwing callback must never break delivery. */
  error(err: ReporterError): void {
    if (!this.callbacks.onError) return;
    try {
      this.callbacks.onError(err);
    } catch {
      /* ignore */
    }
  }

  /** Events discarded before being sent; reported to onDrop coalesced per tick. */
  drop(reason: DropReason, eventIds: string[]): void {
    this.counts.dropped += eventIds.length;
    if (eventIds.length === 0) return;
    if (!this.dropNotes) {
      this.dropNotes = new Map();
      queueMicrotask(() => this.emitDrops());
    }
    const list = this.dropNotes.get(reason);
    if (list) list.push(...eventIds);
    else this.dropNotes.set(reason, eventIds.slice());
  }

  /** Events given up on (retries ran out, close() timed out, a bug): counted as failed. */
  fail(eventIds: string[], error: ReporterError | null): void {
    this.counts.failed += eventIds.length;
    if (error) this.error(error);
  }

  /** Refused: invalid locally, dead-lettered (207) or a whole batch refused. */
  reject(count: number, error: ReporterError): void {
    this.counts.rejected += count;
    this.error(error);
  }

  /** Reports pending drop notes now (close() calls it so none is left for a later tick). */
  emitDrops(): void {
    const notes = this.dropNotes;
    this.dropNotes = null;
    if (!notes) return;
    for (const [reason, eventIds] of notes) {
      const info: DropInfo = { reason, count: eventIds.length, eventIds };
      if (this.callbacks.onDrop) {
        try {
          this.callbacks.onDrop(info);
        } catch {
          /* ignore */
        }
      } else {
        this.error(new ReporterError('events_dropped', `dropped ${info.count} event(s): ${reason}`, { eventIds }));
      }
    }
  }
}
