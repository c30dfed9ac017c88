// The SQLite write lock shared by a process's threads (lib/db/thread-write-lock.ts), across real
// worker threads: mutual exclusion with awaits inside the critical section, and a thread that
// exits holding the lock does not block the others once its death is noticed; a thread with nothing
// else to do stays alive while it waits (a pending Atomics.waitAsync alone does not hold Node's loop
// open: the threads of the first test exited mid-wait under load, CI of 6 Dec 2026 at load ~18).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import { ThreadWriteLock } from '@/lib/db/thread-write-lock';

const ROOT = join(import.meta.dirname, '..', '..');

/** The fixture compiled to one CommonJS file, the way scripts/compile-start.mjs compiles the ingest thread. */
function compiledFixture(): { file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'dw-lock-'));
  const file = join(dir, 'lock-thread.cjs');
  buildSync({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'tests', 'unit', 'support', 'lock-thread.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'error',
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function run(file: string, data: object): { worker: Worker; message: Promise<unknown>; exited: Promise<number> } {
  // No tsx loader (this process's --import): the compiled fixture needs none, the app's ingest threads
  // run without one, and its hooks kept a waiting thread's event loop open, which hid the bug above.
  const worker = new Worker(file, { workerData: data, execArgv: [] });
  return {
    worker,
    message: new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    }),
    exited: new Promise((resolve) => worker.once('exit', resolve)),
  };
}

test('three threads and this one never hold the lock together: no update of the shared counter is lost', async () => {
  const fixture = compiledFixture();
  try {
    const lock = new ThreadWriteLock();
    const counter = new SharedArrayBuffer(4);
    const rounds = 300;
    const threads = [0, 1, 2].map(() => run(fixture.file, { lock: lock.buffer, counter, rounds, die: false }));
    // This thread takes part too, through its own handle on the same buffer.
    const cells = new Int32Array(counter);
    for (let i = 0; i < rounds; i++) {
      await lock.acquire();
      const seen = cells[0];
      await new Promise((resolve) => setImmediate(resolve));
      cells[0] = seen + 1;
      lock.release();
    }
    assert.deepEqual(await Promise.all(threads.map((t) => t.message)), ['done', 'done', 'done']);
    await Promise.all(threads.map((t) => t.exited));
    assert.equal(cells[0], 4 * rounds);
  } finally {
    fixture.remove();
  }
});

test('a thread that exits holding the lock: releaseIfHeldBy frees it, and only for that thread', async () => {
  const fixture = compiledFixture();
  try {
    const lock = new ThreadWriteLock();
    const dying = run(fixture.file, { lock: lock.buffer, counter: new SharedArrayBuffer(4), rounds: 0, die: true });
    const threadId = dying.worker.threadId;
    assert.equal(await dying.message, 'holding');
    await dying.exited;
    let acquired = false;
    const waiting = lock.acquire().then(() => (acquired = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(acquired, false, 'the dead thread still holds it');
    assert.equal(lock.releaseIfHeldBy(threadId + 1), false, 'another thread id frees nothing');
    assert.equal(lock.releaseIfHeldBy(threadId), true);
    await waiting;
    assert.equal(acquired, true);
    assert.equal(lock.releaseIfHeldBy(threadId), false, 'now this thread holds it');
    lock.release();
  } finally {
    fixture.remove();
  }
});

test('a thread with nothing else to do waits for the lock instead of exiting', async () => {
  const fixture = compiledFixture();
  try {
    const lock = new ThreadWriteLock();
    await lock.acquire();
    const waiter = run(fixture.file, { lock: lock.buffer, counter: new SharedArrayBuffer(4), rounds: 0, die: false, once: true });
    const outcome = Promise.race([waiter.message, waiter.exited.then((code) => `exited (${code}) without the lock`)]);
    // Long enough for a thread whose loop is empty to end it: it waits on the lock and nothing else.
    await new Promise((resolve) => setTimeout(resolve, 300));
    lock.release();
    assert.equal(await outcome, 'acquired');
    await waiter.exited;
  } finally {
    fixture.remove();
  }
});
