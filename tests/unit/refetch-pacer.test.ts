// lib/ui/refetch-pacer.ts on a fake clock: a live page refetches a query at once for the first change
// after a quiet spell, at most once per interval while changes keep coming, and always once after the
// last change (nothing pushed is left unfetched); queries are paced apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RefetchPacer, type PacerClock } from '@/lib/ui/refetch-pacer';

class FakeClock implements PacerClock {
  t = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  now = () => this.t;
  setTimer = (fn: () => void, ms: number) => {
    const id = this.next++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  };
  clearTimer = (id: unknown) => void this.timers.delete(id as number);
  pending = () => this.timers.size;
  /** Moves to `t`, running every timer due on the way in order. */
  advance(to: number) {
    for (;;) {
      const due = [...this.timers.entries()].filter(([, x]) => x.at <= to).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = to;
  }
}

const INTERVAL = 2000;

function setup() {
  const clock = new FakeClock();
  const runs: { key: string; at: number }[] = [];
  const pacer = new RefetchPacer<string>(INTERVAL, (key) => runs.push({ key, at: clock.now() }), clock);
  return { clock, runs, pacer };
}

test('the first change after a quiet spell refetches at once', () => {
  const { clock, runs, pacer } = setup();
  clock.advance(10_000);
  pacer.changed('stats', 'stats');
  assert.deepEqual(runs, [{ key: 'stats', at: 10_000 }]);
  clock.advance(13_000);
  pacer.changed('stats', 'stats');
  assert.deepEqual(
    runs.map((r) => r.at),
    [10_000, 13_000],
  );
});

test('a burst within the interval is one more refetch, at the end of the interval', () => {
  const { clock, runs, pacer } = setup();
  pacer.changed('stats', 'stats');
  for (const t of [250, 500, 750, 1_900]) {
    clock.advance(t);
    pacer.changed('stats', 'stats');
  }
  assert.equal(runs.length, 1);
  clock.advance(5_000);
  assert.deepEqual(
    runs.map((r) => r.at),
    [0, INTERVAL],
  );
  assert.equal(clock.pending(), 0);
});

test('a change every 250 ms for a minute: at most one refetch per interval, and one after the last change', () => {
  const { clock, runs, pacer } = setup();
  const last = 60_000;
  for (let t = 0; t <= last; t += 250) {
    clock.advance(t);
    pacer.changed('stats', 'stats');
  }
  clock.advance(last + 10_000);
  // Unpaced that was 241 refetches; paced it is one per interval (0, 2 s, … 60 s) and the one after the
  // change that arrived in the same millisecond as the refetch at 60 s.
  assert.equal(runs.length, last / INTERVAL + 2);
  for (let i = 1; i < runs.length; i++) assert.ok(runs[i].at - runs[i - 1].at >= INTERVAL, `runs ${i - 1} and ${i} too close`);
  assert.ok(runs.at(-1)!.at >= last, 'a refetch after the last change');
});

test('queries are paced apart: a busy one does not hold back another', () => {
  const { clock, runs, pacer } = setup();
  pacer.changed('stats', 'stats');
  clock.advance(300);
  pacer.changed('stats', 'stats');
  pacer.changed('session:t1', 'session:t1');
  assert.deepEqual(runs, [
    { key: 'stats', at: 0 },
    { key: 'session:t1', at: 300 },
  ]);
  clock.advance(INTERVAL + 1);
  assert.deepEqual(
    runs.map((r) => r.key),
    ['stats', 'session:t1', 'stats'],
  );
});

test('stop drops what is scheduled', () => {
  const { clock, runs, pacer } = setup();
  pacer.changed('stats', 'stats');
  clock.advance(100);
  pacer.changed('stats', 'stats');
  assert.equal(clock.pending(), 1);
  pacer.stop();
  clock.advance(10_000);
  assert.equal(runs.length, 1);
  assert.equal(clock.pending(), 0);
});
