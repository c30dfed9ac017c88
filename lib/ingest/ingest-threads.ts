// Ingest on more than one core. The request thread (Next's) reads the body, checks the sender
// and decides the rate limit; worker threads verify the signature, parse and validate the events
// and run the write transaction, each with its own database connection. A batch's examine and
// store run on the same thread, which holds the parsed events in between, so nothing but the raw
// body (its buffer moved, not copied) and small answers crosses threads. The guarantees do not change: 200 still
// means committed (the answer comes after the commit), and concurrent transactions are
// serialised as between instances (PostgreSQL: advisory locks) or by the process's SQLite write
// lock (lib/db/thread-write-lock.ts).
import { processSingleton } from '@/lib/config/process-state';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { settings } from '@/lib/config/settings';
import type { Db } from '@/lib/db/client';
import { sqliteWriteLock } from '@/lib/db/thread-write-lock';
import { observeTimings } from '@/lib/db/timed-sql';
import { publishChange } from '@/lib/live/change-feed';
import { componentLogger } from '@/lib/log/logger';
import { inThreadExaminer, type BodyExaminer, type PendingBody } from './ingest-body';
import type { IngestResult } from './ingest-events';
import {
  rebuildFailure,
  type Failure,
  type JobReply,
  type ThreadReply,
  type ThreadRequest,
  type ThreadSetup,
} from './ingest-thread-messages';

/** Compiled from ingest-thread.ts with the start script (scripts/compile-start.mjs). */
export const INGEST_THREAD_BUNDLE = join('dist', 'ingest', 'ingest-thread.cjs');

const RESPAWN_DELAY_MS = 1_000;
const YOUNG_GENERATION_MB = 8;

/**
 * How the pool fails a request: the failure as data, turned into the error to throw by
 * `withRebuiltFailures` in the caller's copy of the modules. Next bundles instrumentation.ts (which
 * starts the pool) apart from the routes, each with its own `ApiError` class, so an ApiError made
 * here would fail the route's `instanceof` and become a 500.
 */
interface ThreadFailure extends Error {
  threadFailure: Failure;
}

const failed = (failure: Failure): ThreadFailure => Object.assign(new Error(failure.message), { threadFailure: failure });

const threadLost = () =>
  failed({
    status: 503,
    code: 'ingest_unavailable',
    message: 'the ingest thread handling this request stopped; retry (storing is idempotent)',
    headers: { 'retry-after': '1' },
    reason: null,
    skewMs: null,
  });

interface Job {
  resolve(reply: JobReply): void;
  reject(err: Error): void;
}

class IngestThread {
  readonly worker: Worker;
  readonly jobs = new Map<number, Job>();
  alive = true;

  constructor(file: string, setup: ThreadSetup, onExit: (thread: IngestThread, code: number) => void) {
    // A small young generation: by default each thread's grows to ~32 MB under ingest, for no
    // throughput (docs/benchmarks.md, "Ingest threads"); a batch's objects live ~20 ms.
    this.worker = new Worker(file, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    // The threads never keep the process alive: shutdown is the request thread's decision.
    this.worker.unref();
    this.worker.on('message', (reply: ThreadReply) => {
      if (reply.kind === 'change') return publishChange(reply.change);
      if (reply.timings) observeTimings(reply.timings);
      const job = this.jobs.get(reply.id);
      this.jobs.delete(reply.id);
      if (!job) return;
      if (reply.kind === 'failed') job.reject(failed(reply.failure));
      else job.resolve(reply);
    });
    this.worker.on('error', (err) =>
      componentLogger('ingest').error({ err: err.message, threadId: this.worker.threadId }, 'ingest thread failed'),
    );
    const threadId = this.worker.threadId;
    this.worker.on('exit', (code) => {
      this.alive = false;
      // A thread that died mid-transaction must not keep every other writer waiting.
      sqliteWriteLock().releaseIfHeldBy(threadId);
      for (const job of this.jobs.values()) job.reject(threadLost());
      this.jobs.clear();
      onExit(this, code);
    });
  }

  /** `transfer`: buffers handed over to the thread (gone from this one). */
  ask(request: ThreadRequest, transfer: ArrayBuffer[] = []): Promise<JobReply> {
    if (!this.alive) return Promise.reject(threadLost());
    return new Promise((resolve, reject) => {
      this.jobs.set(request.id, { resolve, reject });
      this.worker.postMessage(request, transfer);
    });
  }
}

export class IngestThreadPool {
  private readonly threads: (IngestThread | null)[];
  private nextId = 1;

  constructor(
    private readonly file: string,
    size: number,
    private readonly setup: ThreadSetup,
  ) {
    this.threads = Array.from({ length: size }, () => null);
    for (let slot = 0; slot < size; slot++) this.spawn(slot);
  }

  private spawn(slot: number): void {
    this.threads[slot] = new IngestThread(this.file, this.setup, (thread, code) => {
      if (this.threads[slot] !== thread) return;
      this.threads[slot] = null;
      componentLogger('ingest').error({ slot, code }, 'ingest thread exited; starting another');
      setTimeout(() => this.spawn(slot), RESPAWN_DELAY_MS).unref();
    });
  }

  /** The live thread with the fewest jobs in hand, or null while none is running. */
  private pick(): IngestThread | null {
    let best: IngestThread | null = null;
    for (const t of this.threads) if (t?.alive && (!best || t.jobs.size < best.jobs.size)) best = t;
    return best;
  }

  /**
   * Examines on a thread, or with `fallback` (in this thread) while no thread is running. A thread's
   * failures reject as data (ThreadFailure): wrap with withRebuiltFailures where they are answered.
   */
  examiner(fallback: BodyExaminer): BodyExaminer {
    return async (server, raw, headers, secrets): Promise<PendingBody> => {
      const thread = this.pick();
      if (!thread) return fallback(server, raw, headers, secrets);
      const id = this.nextId++;
      // The body moves (no copy) when it is the whole of its buffer, as readLimitedBytes gives it; a view
      // on a larger buffer (Node's shared pool) is copied, since moving it would take the rest along.
      const whole = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength && raw.buffer instanceof ArrayBuffer;
      const body = whole ? raw : raw.slice();
      const examined = await thread.ask({ op: 'examine', id, server, raw: body, headers, secrets }, [body.buffer as ArrayBuffer]);
      return {
        eventCount: examined.kind === 'examined' ? examined.eventCount : 0,
        store: async () => {
          const reply = await thread.ask({ op: 'store', id });
          return (reply as Extract<JobReply, { kind: 'stored' }>).result satisfies IngestResult;
        },
        release: () => void thread.ask({ op: 'release', id }).catch(() => undefined),
      };
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.flatMap((t) => (t ? [t.worker.terminate()] : [])));
  }
}

/** PostgreSQL connections each ingest thread may open (docs/deploy.md, Environment variables). */
function threadPgPoolSize(poolSize: number, threads: number): number {
  return Math.max(2, Math.ceil(poolSize / 2 / threads));
}

/**
 * The process's pool, started once (at server start, by instrumentation.ts), or null when ingest
 * stays in the request thread: DOORWATCH_INGEST_THREADS=0, a development server (its code reloads;
 * the bundle would not), or no compiled bundle (said once in the log).
 */
export function startIngestThreads(): IngestThreadPool | null {
  return processSingleton('doorwatchIngestThreads', startPool);
}

function startPool(): IngestThreadPool | null {
  const size = settings().DOORWATCH_INGEST_THREADS;
  const file = join(process.cwd(), INGEST_THREAD_BUNDLE);
  let pool: IngestThreadPool | null = null;
  if (size > 0 && process.env.NODE_ENV === 'production') {
    if (existsSync(file)) {
      // Half the instance's pool again, split over the threads: a thread with 4 batches in flight uses ~4.
      const pgPoolSize = threadPgPoolSize(settings().DOORWATCH_PG_POOL_SIZE, size);
      pool = new IngestThreadPool(file, size, { sqliteLock: sqliteWriteLock().buffer, pgPoolSize });
      componentLogger('ingest').info({ threads: size, database: settings().DATABASE_URL.provider }, 'ingest threads started');
    } else {
      componentLogger('ingest').warn({ file }, 'ingest thread bundle missing (npm run build compiles it); ingesting in the request thread');
    }
  }
  return pool;
}

const rebuilt = (err: unknown): unknown =>
  err && typeof err === 'object' && 'threadFailure' in err ? rebuildFailure((err as ThreadFailure).threadFailure) : err;

/** The examiner with a thread's failures thrown as this module's errors (ApiError, Unauthorized). */
export function withRebuiltFailures(examine: BodyExaminer): BodyExaminer {
  return async (...args) => {
    const pending = await examine(...args).catch((err: unknown) => Promise.reject(rebuilt(err)));
    return { ...pending, store: () => pending.store().catch((err: unknown) => Promise.reject(rebuilt(err))) };
  };
}

/** How this process examines and stores ingest bodies: on its ingest threads, else in the request thread. */
export function bodyExaminer(db: Db): BodyExaminer {
  const inThread = inThreadExaminer(db.sql);
  const pool = startIngestThreads();
  return pool ? withRebuiltFailures(pool.examiner(inThread)) : inThread;
}
