// A clock that stops while this process is starved of CPU. The simulator's idle timeout (1.5 s in the
// fleet tests, standing in for a real server's 300 s) judges silence the server caused. When the
// machine is oversubscribed the whole process (server and clients alike) can be off the CPU for more
// than that; wall time would then call it a deadlock that nobody on the wire caused (two client
// "deadlocks" of a refusing fleet at load 28). A 20 ms ticker measures how late it runs: lateness is
// time the process could not run, and this clock leaves it out.
import { performance } from 'node:perf_hooks';

const TICK_MS = 20;
// Lateness a healthy loop shows anyway (timer granularity, GC): not counted as a stall.
const JITTER_MS = 10;

let stalledMs = 0;
let expectedAt = 0;
let ticker: NodeJS.Timeout | null = null;

/** How late the ticker is at `now`: a stall in progress (the ticker has not been able to run yet). */
const lateAt = (now: number): number => Math.max(0, now - expectedAt - JITTER_MS);

function tick(): void {
  const now = performance.now();
  stalledMs += lateAt(now);
  expectedAt = now + TICK_MS;
}

/**
 * Milliseconds on a clock that does not advance while the process was starved of CPU. A stall still
 * in progress (the ticker is late right now) is left out too, so the clock never steps back when the
 * ticker catches up.
 */
export function progressNow(): number {
  if (!ticker) {
    expectedAt = performance.now() + TICK_MS;
    ticker = setInterval(tick, TICK_MS);
    ticker.unref();
  }
  const now = performance.now();
  return now - stalledMs - lateAt(now);
}
