// Two clocks for what a server process measures against time (docs/reliability.md, "Clock steps").
//
// `monotonicMs` is for a duration measured inside the process (a rate bucket's refill, a lock
// wait, a throttle's block): it never steps, so it is the only right base for one.
//
// `SteadyClock` is Doorwatch's "now" where a now is compared with reporters' timestamps or with
// instants the leader stored (an alert's pending-since, an incident's last evidence, an ongoing
// deadlock's start). It reads the host's wall clock but advances by the monotonic clock: a
// departure of the wall clock from it beyond STEP_TOLERANCE_MS is a step (an operator's `date`,
// a VM restored, NTP stepping), which it follows only gradually, at SLEW_RATE of the time that
// passes, as ntpd and chrony slew. So a step of minutes neither fires nor resolves an alert nor
// makes an ongoing deadlock jump; while a step is absorbed, a duration on this clock is long or
// short by at most SLEW_RATE, and afterwards the clock is the wall clock again. Pure: both
// readers are injected (the process's one instance is lib/instance/doorwatch-clock.ts).

/** Milliseconds since an arbitrary origin, never stepped (CLOCK_MONOTONIC). */
export const monotonicMs = (): number => performance.now();

/** A departure of the wall clock up to this is followed at once (NTP's own slewing, read jitter). */
export const STEP_TOLERANCE_MS = 1_000;
/**
 * The fraction of elapsed time by which a step is absorbed: 5 %, so a 10-minute step takes 200
 * minutes and a 30-minute "for" window measured meanwhile is off by at most 90 s. Below chrony's
 * default maximum slew (8.3 %); faster would shorten windows more, slower would keep a corrected
 * clock's old time longer.
 */
export const SLEW_RATE = 0.05;

export interface ClockReaders {
  wall: () => number;
  monotonic: () => number;
}

const SYSTEM: ClockReaders = { wall: () => Date.now(), monotonic: monotonicMs };

export class SteadyClock {
  private at: number;
  private mono: number;
  /** Wall minus `at` after the last reading: the part of a step not absorbed yet. */
  private offset = 0;

  /** `onStep` hears of each step as it is seen: the wall clock's jump in milliseconds (+ forward). */
  constructor(
    private readonly read: ClockReaders = SYSTEM,
    private readonly onStep: (stepMs: number) => void = () => {},
  ) {
    this.at = read.wall();
    this.mono = read.monotonic();
  }

  /** Now, in whole epoch milliseconds (stored in BIGINT columns): never earlier than a previous answer. */
  now(): number {
    const wall = this.read.wall();
    const mono = this.read.monotonic();
    const elapsed = Math.max(0, mono - this.mono);
    const predicted = this.at + elapsed;
    const offset = wall - predicted;
    if (Math.abs(offset - this.offset) > STEP_TOLERANCE_MS) this.onStep(offset - this.offset);
    const slew = elapsed * SLEW_RATE;
    const next = Math.abs(offset) <= STEP_TOLERANCE_MS ? wall : predicted + Math.max(-slew, Math.min(slew, offset));
    this.at = Math.max(this.at, next);
    this.mono = mono;
    this.offset = wall - this.at;
    return Math.floor(this.at);
  }
}
