// The steady clock (lib/time/steady-clock.ts) with both clocks driven by hand: it follows the wall
// clock while the wall clock runs at the monotonic rate, and absorbs a step of either sign only at
// SLEW_RATE, never going backwards; each step is reported once with its size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SLEW_RATE, STEP_TOLERANCE_MS, SteadyClock } from '@/lib/time/steady-clock';
import { EventRateLimiter } from '@/lib/ingest/rate-limiter';

const T0 = Date.UTC(2026, 11, 4, 12, 0, 0);
const MIN = 60_000;

function hostClock() {
  const c = { wall: T0, mono: 5_000 };
  const steps: number[] = [];
  const clock = new SteadyClock({ wall: () => c.wall, monotonic: () => c.mono }, (s) => steps.push(s));
  const pass = (ms: number) => {
    c.wall += ms;
    c.mono += ms;
  };
  return { c, clock, steps, pass };
}

test('without steps it is the wall clock', () => {
  const { clock, pass, steps } = hostClock();
  assert.equal(clock.now(), T0);
  pass(1234);
  assert.equal(clock.now(), T0 + 1234);
  assert.deepEqual(steps, []);
});

test('a forward step of minutes is not followed at once, then absorbed at SLEW_RATE', () => {
  const { c, clock, pass, steps } = hostClock();
  pass(10_000);
  clock.now();
  c.wall += 10 * MIN; // the step
  assert.equal(clock.now(), T0 + 10_000, 'the step itself moves nothing');
  assert.deepEqual(steps, [10 * MIN]);
  pass(60_000);
  assert.equal(clock.now(), T0 + 70_000 + 60_000 * SLEW_RATE, 'one minute later: ahead by the slew only');
  // Absorbed after step / SLEW_RATE (plus the tolerance snap); from then on the wall clock again.
  pass((10 * MIN) / SLEW_RATE);
  assert.equal(clock.now(), c.wall);
  pass(500);
  assert.equal(clock.now(), c.wall);
  assert.deepEqual(steps, [10 * MIN], 'one step, reported once');
});

test('a backward step of minutes neither moves it back nor stops it; it slows by SLEW_RATE', () => {
  const { c, clock, pass, steps } = hostClock();
  clock.now();
  c.wall -= 5 * MIN;
  assert.equal(clock.now(), T0);
  pass(1_000);
  assert.equal(clock.now(), T0 + 1_000 * (1 - SLEW_RATE));
  assert.deepEqual(steps, [-5 * MIN]);
  let prev = clock.now();
  for (let i = 0; i < 200; i++) {
    pass(37_000);
    const now = clock.now();
    assert.ok(now >= prev, 'never backwards');
    prev = now;
  }
  assert.equal(clock.now(), c.wall, 'absorbed: 200 × 37 s is past 5 min / SLEW_RATE');
});

test('its answers are whole milliseconds, though the monotonic clock has fractions', () => {
  const { c, clock, pass } = hostClock();
  c.mono += 0.4;
  c.wall += 30 * MIN;
  pass(1_000.3);
  const now = clock.now();
  assert.ok(Number.isInteger(now), String(now));
  assert.equal(now, Math.floor(T0 + 1_000.7 * (1 + SLEW_RATE)));
});

test('within the tolerance the wall clock is followed as it is (NTP slewing, read jitter)', () => {
  const { c, clock, pass, steps } = hostClock();
  clock.now();
  pass(2_000);
  c.wall += STEP_TOLERANCE_MS - 1;
  assert.equal(clock.now(), c.wall);
  assert.deepEqual(steps, []);
});

test('the measured durations of an alert "for" window and an ongoing deadlock do not carry the step', () => {
  // What evaluate-rule and deadlockAsOf compute: now − an instant read on this clock earlier.
  const { c, clock, pass } = hostClock();
  const pendingSince = clock.now();
  pass(4 * MIN);
  c.wall += 30 * MIN;
  pass(30_000);
  const held = clock.now() - pendingSince;
  assert.ok(held >= 4.5 * MIN && held <= 4.5 * MIN * (1 + SLEW_RATE), `held ${held} ms`);
  c.wall -= 60 * MIN;
  pass(30_000);
  const later = clock.now() - pendingSince;
  assert.ok(later - held >= 30_000 * (1 - SLEW_RATE) && later - held <= 30_000, `then ${later - held} ms more`);
});

test('the ingest rate limiter refills by monotonic time: no step is a refill or a debt', () => {
  const limiter = new EventRateLimiter(1, 10);
  let mono = 1_000;
  assert.equal(limiter.take('a', 10, mono).allowed, true);
  assert.equal(limiter.take('a', 10, mono).allowed, false);
  mono += 10_000; // ten seconds of refill, whatever the wall clock did meanwhile
  assert.equal(limiter.take('a', 10, mono).allowed, true);
  assert.equal(limiter.take('a', 1).allowed, false, 'the default clock is the monotonic one, not Date.now()');
});
