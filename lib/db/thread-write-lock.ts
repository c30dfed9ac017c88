// The SQLite write lock shared by the threads of one process. Ingest threads
// (lib/ingest/ingest-threads.ts) each own a writer connection on the same file as the main
// thread's; without this lock they would meet in SQLite's file lock, and sqlite-busy.ts waits for
// that on polling timers (2-100 ms pauses): fine for a rare CLI, a convoy under ingest load.
// One Int32 cell in a SharedArrayBuffer: 0 when free, else the holder's thread id + 1, so the
// main thread can free the lock of a thread that died holding it.
import { processSlot } from '@/lib/config/process-state';
import { threadId } from 'node:worker_threads';

// In V8 since Node 16; typed in TypeScript's es2024 lib, newer than this project's target.
const waitAsync = (
  Atomics as unknown as {
    waitAsync(cell: Int32Array, index: number, value: number): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

/**
 * Node does not count a pending Atomics.waitAsync as work (nodejs/node#61941): a thread with nothing
 * else to do ends its event loop mid-wait and exits without the lock it was waiting for (a worker's
 * parentPort holds no loop open without a listener). A ref'd timer, never due, holds the loop open
 * until the wait settles.
 */
async function keepingLoopAlive(wait: Promise<string>): Promise<void> {
  const open = setInterval(() => undefined, 2 ** 30);
  try {
    await wait;
  } finally {
    clearInterval(open);
  }
}

export class ThreadWriteLock {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.cell = new Int32Array(buffer);
  }

  /** Resolves once this thread holds the lock; waits without blocking the event loop. */
  async acquire(): Promise<void> {
    const me = threadId + 1;
    for (;;) {
      const holder = Atomics.compareExchange(this.cell, 0, 0, me);
      if (holder === 0) return;
      const wait = waitAsync(this.cell, 0, holder);
      if (wait.async) await keepingLoopAlive(wait.value);
    }
  }

  release(): void {
    Atomics.store(this.cell, 0, 0);
    Atomics.notify(this.cell, 0, 1);
  }

  /** Frees the lock if `deadThreadId` held it (its thread exited mid-transaction; SQLite rolled back). */
  releaseIfHeldBy(deadThreadId: number): boolean {
    if (Atomics.compareExchange(this.cell, 0, deadThreadId + 1, 0) !== deadThreadId + 1) return false;
    Atomics.notify(this.cell, 0, 1);
    return true;
  }
}

// One per process (lib/config/process-state.ts): every SQLite writer of the process
// (lib/db/client.ts, the ingest threads) must share it. A thread adopts its parent's buffer
// (adoptSqliteWriteLock) before it opens the database.
const lock = processSlot<ThreadWriteLock>('doorwatchSqliteWriteLock');

export function sqliteWriteLock(): ThreadWriteLock {
  let l = lock.get();
  if (l === undefined) lock.set((l = new ThreadWriteLock()));
  return l;
}

export function adoptSqliteWriteLock(buffer: SharedArrayBuffer): void {
  lock.set(new ThreadWriteLock(buffer));
}
