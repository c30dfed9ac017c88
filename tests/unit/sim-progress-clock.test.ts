// The simulator's idle clock leaves out time the process could not run: a 400 ms block of the event
// loop (what an oversubscribed machine does to the whole process) does not count as heard silence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { progressNow } from '@/scripts/sim/server/progress-clock';

test('a blocked event loop does not advance the progress clock; waiting does', async () => {
  // The wall window encloses the clock's window, so the comparison below is exact.
  const wallStart = performance.now();
  const start = progressNow();
  await sleep(100);
  const waited = progressNow() - start;
  // Late wake-ups on a loaded machine count as stalls too, so a wait advances it by at most its wall time.
  assert.ok(waited > 0 && waited <= performance.now() - wallStart, `a 100 ms wait advanced the clock by ${waited} ms`);

  const before = progressNow();
  const until = Date.now() + 400;
  while (Date.now() < until) {
    // the process holds the CPU but cannot serve anyone: a stall
  }
  await sleep(50); // the ticker measures the stall when it next runs
  const advanced = progressNow() - before;
  assert.ok(advanced < 250, `a 400 ms stall advanced the clock by ${advanced} ms`);
});
