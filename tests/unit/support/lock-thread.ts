// A thread for thread-write-lock.test.ts (compiled with esbuild, as the ingest thread is): takes
// the shared lock `rounds` times, and inside it does a read-modify-write of a shared counter with
// an await in the middle, which loses updates unless the lock excludes the other threads.
// With `die`, it takes the lock once and exits holding it.
import { parentPort, workerData } from 'node:worker_threads';
import { ThreadWriteLock } from '@/lib/db/thread-write-lock';

const { lock, counter, rounds, die } = workerData as { lock: SharedArrayBuffer; counter: SharedArrayBuffer; rounds: number; die: boolean };
const shared = new ThreadWriteLock(lock);
const cells = new Int32Array(counter);

async function main() {
  if (die) {
    await shared.acquire();
    parentPort!.postMessage('holding');
    process.exit(0);
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
