// SQLite contention without blocking the event loop. better-sqlite3 is synchronous: its busy
// handler (the `timeout` option) sleeps inside the call and freezes the whole process. So every
// in-process connection opens with busy_timeout 0, writes of this process queue in JS (one
// writer), and a lock held by ANOTHER process (a CLI, a migration) is waited for with timers
// here, then surfaces as SQLITE_BUSY, which ingest answers 503 + Retry-After.

/** SQLITE_BUSY / SQLITE_LOCKED (and their extended codes), from better-sqlite3 or Prisma's adapter. */
export function isSqliteBusy(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))) return true;
    // Prisma's better-sqlite3 adapter maps SQLITE_BUSY to this kind.
    if ((e as { kind?: unknown }).kind === 'SocketTimeout') return true;
  }
  return false;
}

import { monotonicMs } from '@/lib/time/steady-clock';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs fn (which must have no effect when it fails busy: one autocommit statement, a BEGIN, a
 * read) and retries it on SQLITE_BUSY with growing pauses for at most budgetMs, then rethrows.
 */
export async function retryWhileBusy<T>(fn: () => T | Promise<T>, budgetMs: number): Promise<T> {
  // Monotonic: a step of the host clock must neither cut the wait short nor stretch it by minutes.
  const deadline = monotonicMs() + budgetMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await fn();
    } catch (err) {
      const left = deadline - monotonicMs();
      if (!isSqliteBusy(err) || left <= 0) throw err;
      await sleep(Math.min(pause, left));
    }
  }
}
