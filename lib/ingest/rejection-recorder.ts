// Counting refused ingest requests without touching the ingest path's latency: record() only adds
// to an in-memory batch; a timer (unref'd) flushes it every second as one upsert. What a crash
// loses is at most the last second of rejection counts (never an accepted event). A flush that
// fails keeps its counts for the next one. Claimed server names are checked at flush time
// against the Server table: unregistered ones go to the single unknown bucket (with the last
// names seen), so inventing names cannot create rows; between flushes at most MAX_PENDING_NAMES
// distinct names are held, further ones go straight to the unknown bucket.
import { processSingleton } from '@/lib/config/process-state';
import type { SqlExecutor } from '@/lib/db/sql';
import type { TRejectionReason } from '@/lib/contract/api/rejections';
import { minuteOf } from '@/lib/metrics/rollup-contributions';
import {
  RECENT_UNKNOWN_NAMES,
  UNKNOWN_SERVER_BUCKET,
  addRejections,
  registeredAmong,
  type RejectionCell,
} from '@/lib/store/ingest-rejections';
import { logger } from '@/lib/log/logger';

export const FLUSH_INTERVAL_MS = 1_000;
const MAX_PENDING_NAMES = 1_000;

export interface Rejection {
  /** The name in the request path; unverified. */
  server: string;
  reason: TRejectionReason;
  at: number;
  skewMs?: number | null;
}

export class RejectionRecorder {
  private pending = new Map<string, RejectionCell>();
  private names = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** The last names seen in the unknown bucket by this instance, across flushes (newest last). */
  private recentUnknown: string[] = [];

  constructor(
    private readonly sql: () => SqlExecutor,
    private readonly intervalMs = FLUSH_INTERVAL_MS,
  ) {}

  record(r: Rejection): void {
    const claimed = this.names.has(r.server) || this.names.size < MAX_PENDING_NAMES ? r.server : null;
    if (claimed !== null) this.names.add(claimed);
    add(this.pending, claimed ?? UNKNOWN_SERVER_BUCKET, r, claimed === null ? [r.server] : null);
    logger().warn({ server: r.server, reason: r.reason, skewMs: r.skewMs ?? undefined }, 'ingest request refused');
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes what is pending (tests and shutdown call it directly). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.names = new Set();
    this.flushing = this.write(batch).finally(() => (this.flushing = null));
    await this.flushing;
  }

  private async write(batch: Map<string, RejectionCell>): Promise<void> {
    try {
      const sql = this.sql();
      const claimed = [...new Set([...batch.values()].map((c) => c.server).filter((s) => s !== UNKNOWN_SERVER_BUCKET))];
      const known = await registeredAmong(sql, claimed);
      const cells = new Map<string, RejectionCell>();
      for (const c of batch.values()) {
        const isKnown = c.server === UNKNOWN_SERVER_BUCKET ? false : known.has(c.server);
        const names = isKnown ? null : [...(c.lastNames ?? []), ...(c.server === UNKNOWN_SERVER_BUCKET ? [] : [c.server])];
        merge(cells, isKnown ? c : { ...c, server: UNKNOWN_SERVER_BUCKET, lastNames: names });
      }
      // A row keeps the names of its latest write: write this instance's whole recent list, not only this second's.
      for (const c of cells.values()) {
        if (c.server !== UNKNOWN_SERVER_BUCKET || !c.lastNames) continue;
        const all = [...this.recentUnknown, ...c.lastNames];
        this.recentUnknown = all.filter((n, i) => all.lastIndexOf(n) === i).slice(-RECENT_UNKNOWN_NAMES);
      }
      for (const c of cells.values()) if (c.server === UNKNOWN_SERVER_BUCKET) c.lastNames = [...this.recentUnknown];
      await addRejections(sql, [...cells.values()]);
    } catch (err) {
      // Keep the counts for the next flush; rejections must never break ingest.
      for (const c of batch.values()) merge(this.pending, c);
      logger().error({ err: errorText(err) }, 'rejection counts could not be written; retrying');
      if (!this.timer) {
        this.timer = setTimeout(() => void this.flush(), this.intervalMs * 5);
        this.timer.unref();
      }
    }
  }
}

const key = (c: Pick<RejectionCell, 'server' | 'reason' | 'minute'>) => `${c.server}|${c.reason}|${c.minute}`;

function add(cells: Map<string, RejectionCell>, server: string, r: Rejection, names: string[] | null): void {
  merge(cells, {
    server,
    reason: r.reason,
    minute: minuteOf(r.at),
    count: 1,
    lastAt: r.at,
    lastSkewMs: r.skewMs ?? null,
    lastNames: names,
  });
}

function merge(cells: Map<string, RejectionCell>, c: RejectionCell): void {
  const k = key(c);
  const had = cells.get(k);
  if (!had) {
    cells.set(k, { ...c, lastNames: c.lastNames?.slice(-RECENT_UNKNOWN_NAMES) ?? null });
    return;
  }
  const newer = c.lastAt >= had.lastAt;
  had.count += c.count;
  had.lastAt = Math.max(had.lastAt, c.lastAt);
  if (c.lastSkewMs !== null && (newer || had.lastSkewMs === null)) had.lastSkewMs = c.lastSkewMs;
  if (c.lastNames) {
    const all = newer ? [...(had.lastNames ?? []), ...c.lastNames] : [...c.lastNames, ...(had.lastNames ?? [])];
    // Distinct, newest last.
    const distinct = all.filter((n, i) => all.lastIndexOf(n) === i);
    had.lastNames = distinct.slice(-RECENT_UNKNOWN_NAMES);
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0] : String(err));

/** The process's recorder, writing through the app database. */
export function rejectionRecorder(sql: () => SqlExecutor): RejectionRecorder {
  return processSingleton('doorwatchRejections', () => new RejectionRecorder(sql));
}
