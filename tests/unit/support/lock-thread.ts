// A thread for thread-write-lock.test.ts (compiled with esbuild, as the ingest thread is): takes
// the shared lock `rounds` times, and inside it does a read-modify-write of a shared counter with
// an await in the middle, which loses updates unless the lock excludes the other threads.
// With `die`, it takes the lock once and exits holding it. With `once`, it takes the lock once (waiting
// with nothing else to keep its event loop open), says so and lets it go.
import { parentPort, workerData } from 'node:worker_threads';
import { ThreadWriteLock } from '@/lib/db/thread-write-lock';

const { lock, counter, rounds, die, once } = workerData as {
  lock: SharedArrayBuffer;
  counter: SharedArrayBuffer;
  rounds: number;
  die: boolean;
  once?: boolean;
};
const shared = new ThreadWriteLock(lock);
const cells = new Int32Array(counter);

async function main() {
  if (die) {
    await shared.acquire();
    parentPort!.postMessage('holding');
    process.exit(0);
  }
  if (once) {
    await shared.acquire();
    parentPort!.postMessage('acquired');
    shared.release();
    return;
  }
  for (let i = 0; i < rounds; i++) {
    await shared.acquire();
    try {
      const seen = cells[0];
      await new Promise((resolve) => setImmediate(resolve));
      cells[0] = seen + 1;
    } finally {
      shared.release();
    }
  }
  parentPort!.postMessage('done');
}
void main();
