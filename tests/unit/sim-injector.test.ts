import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { FaultInjector, ResetSchedule, type Resettable } from '@/lib/wire/injector';
import { createRng } from '@/lib/wire/random';

describe('sim reset schedule', () => {
  test('random resets: exponential delays with the configured mean, reproducible from the seed', () => {
    const a = new ResetSchedule({ ratePerSec: 2 }, createRng(42));
    const b = new ResetSchedule({ ratePerSec: 2 }, createRng(42));
    const xs = Array.from({ length: 20_000 }, () => a.nextRandomDelay()!);
    assert.deepEqual(
      xs.slice(0, 50),
      Array.from({ length: 50 }, () => b.nextRandomDelay()),
    );
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(Math.abs(mean - 500) < 15, `mean ${mean}`);
    assert.ok(xs.every((x) => Number.isInteger(x) && x >= 1));
    // Memoryless: about e^-1 of the delays exceed the mean.
    const tail = xs.filter((x) => x > 500).length / xs.length;
    assert.ok(Math.abs(tail - Math.exp(-1)) < 0.02, `tail ${tail}`);
  });

  test('rate 0 never resets at random', () => {
    assert.equal(new ResetSchedule({ ratePerSec: 0 }, createRng(1)).nextRandomDelay(), null);
  });

  test('targeted resets: the share of upgrades, at 40–90 ms after upgrade-accepted', () => {
    const s = new ResetSchedule({ ratePerSec: 0, afterUpgrade: { share: 0.3, delayMs: [40, 90] } }, createRng(7));
    const draws = Array.from({ length: 10_000 }, () => s.afterUpgradeDelay());
    const hits = draws.filter((d): d is number => d !== null);
    assert.ok(Math.abs(hits.length / draws.length - 0.3) < 0.02, `share ${hits.length / draws.length}`);
    assert.ok(hits.every((d) => d >= 40 && d <= 90));
    assert.ok(Math.min(...hits) <= 41 && Math.max(...hits) >= 89);
    const always = new ResetSchedule({ ratePerSec: 0, afterUpgrade: { share: 1, delayMs: [60, 60] } }, createRng(7));
    assert.equal(always.afterUpgradeDelay(), 60);
    assert.equal(new ResetSchedule({ ratePerSec: 1 }, createRng(7)).afterUpgradeDelay(), null);
  });

  test('invalid schedules are refused', () => {
    assert.throws(() => new ResetSchedule({ ratePerSec: -1 }, createRng(1)), RangeError);
    assert.throws(() => new ResetSchedule({ ratePerSec: 1, afterUpgrade: { share: 2, delayMs: [1, 2] } }, createRng(1)), RangeError);
    assert.throws(() => new ResetSchedule({ ratePerSec: 1, afterUpgrade: { share: 0.5, delayMs: [90, 40] } }, createRng(1)), RangeError);
  });
});

describe('sim fault injector', () => {
  class Target implements Resettable {
    resets = 0;
    constructor(public resettable = true) {}
    injectReset() {
      if (!this.resettable) return false;
      this.resets += 1;
      return true;
    }
  }

  test('counts only resets that were applied, stops at max, and disarm cancels', async () => {
    const inj = new FaultInjector(new ResetSchedule({ ratePerSec: 1000, afterUpgrade: { share: 1, delayMs: [1, 2] } }, createRng(3)), {
      maxResets: 3,
    });
    const live = new Target();
    const gone = new Target(false);
    const cancelled = new Target();
    inj.armed(live);
    inj.armed(gone);
    inj.armed(cancelled);
    inj.disarmed(cancelled);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(live.resets, 1);
    assert.equal(cancelled.resets, 0);
    assert.equal(inj.counts.resets, 1);
    inj.upgradeWritten(live);
    inj.upgradeWritten(live);
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(inj.counts, { resets: 3, random: 1, targeted: 2 });
    assert.equal(inj.active, false);
    inj.armed(live);
    inj.upgradeWritten(live);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(live.resets, 3);
  });
});
