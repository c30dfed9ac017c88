import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { alarmLevel, alarmText, decideAlarm, heldSince, type AlarmLevel, type AlarmSample, type AlarmState } from '@/lib/ui/alarm';

const H = 30_000;

const srv = (server: string, over: Partial<AlarmSample['servers'][number]> = {}) => ({
  server,
  stuck: 0,
  deadlocksInRange: 0,
  lastDeadlockAt: null,
  naiveInRange: false,
  ...over,
});

/** Folds the samples in order; the level each shows when it arrives. */
function run(samples: AlarmSample[], holdMs = H): { states: AlarmState[]; levels: AlarmLevel[] } {
  const states: AlarmState[] = [];
  let prev: AlarmState | null = null;
  for (const s of samples) states.push((prev = decideAlarm(prev, s)));
  return { states, levels: states.map((st, i) => alarmLevel(st, samples[i].at, holdMs)) };
}

test('a stuck session is red at once; the alarm names the server', () => {
  const sample = {
    at: 0,
    servers: [srv('demo-us-1', { stuck: 2, deadlocksInRange: 30, lastDeadlockAt: -25_000, naiveInRange: true }), srv('demo-eu-1')],
  };
  const calm = decideAlarm(null, { at: -5000, servers: [srv('demo-us-1')] });
  assert.equal(alarmLevel(decideAlarm(calm, sample), 0, H), 'stuck');
  const t = alarmText(sample, 0);
  assert.equal(t.headline, '2 sessions stuck on demo-us-1');
  assert.deepEqual(t.details, ['last deadlock 25 s ago on demo-us-1', '30 in this range', 'demo-us-1 resumes naively']);
});

test('stuck on several servers: the headline gives each its count', () => {
  const sample = { at: 0, servers: [srv('a', { stuck: 1 }), srv('b', { stuck: 2 }), srv('c')] };
  assert.equal(alarmText(sample, 0).headline, '3 sessions stuck: 2 on b, 1 on a');
});

test('no stuck session but a naive server in range: amber with recency, never green', () => {
  const at = 10 * H;
  const sample = { at, servers: [srv('demo-us-1', { deadlocksInRange: 30, lastDeadlockAt: at - 25_000, naiveInRange: true })] };
  const { states, levels } = run(Array.from({ length: 20 }, (_, i) => ({ ...sample, at: at + i * 5000 })));
  assert.ok(levels.every((l) => l === 'warn'));
  // However long the clock runs on.
  assert.equal(alarmLevel(states.at(-1)!, at + 100 * H, H), 'warn');
  assert.equal(alarmText(sample, at).headline, '0 stuck now');
  assert.deepEqual(alarmText(sample, at).details, ['last deadlock 25 s ago on demo-us-1', '30 in this range', 'demo-us-1 resumes naively']);
});

test('red steps down only a hold after the first sample without a stuck session, then green only after another hold', () => {
  const { levels } = run([
    { at: 0, servers: [srv('a', { stuck: 1 })] },
    { at: 5000, servers: [srv('a')] },
    { at: 5000 + H - 1, servers: [srv('a')] },
    { at: 5000 + H, servers: [srv('a')] },
    { at: 5000 + 2 * H - 1, servers: [srv('a')] },
    { at: 5000 + 2 * H, servers: [srv('a')] },
  ]);
  assert.deepEqual(levels, ['stuck', 'stuck', 'stuck', 'warn', 'warn', 'calm']);
});

test('the hold expires on the clock alone: no new sample is needed to step down (absolute range, nothing ingested)', () => {
  const { states } = run([
    { at: 0, servers: [srv('a', { stuck: 1, deadlocksInRange: 1, naiveInRange: true })] },
    { at: 5000, servers: [srv('a', { deadlocksInRange: 1, naiveInRange: true })] },
  ]);
  const last = states.at(-1)!;
  assert.equal(alarmLevel(last, 5000, H), 'stuck');
  assert.equal(alarmLevel(last, 5000 + H - 1, H), 'stuck');
  assert.equal(alarmLevel(last, 5000 + H, H), 'warn');
  // A naive answer stays in range: amber for good, never green.
  assert.equal(alarmLevel(last, 5000 + 10 * H, H), 'warn');
  // While held, the words say since when; once stepped down to what the sample shows, nothing is held.
  assert.equal(heldSince(last, 12_000, H), 5000);
  assert.deepEqual(alarmText({ at: 5000, servers: [srv('a', { deadlocksInRange: 1 })] }, 17_000, 5000).details, [
    'cleared 12 s ago',
    '1 in this range',
  ]);
  assert.equal(heldSince(last, 5000 + H, H), null);

  // Without a naive answer the clock carries amber on to green too.
  const { states: plain } = run([
    { at: 0, servers: [srv('a', { stuck: 1 })] },
    { at: 5000, servers: [srv('a')] },
  ]);
  const p = plain.at(-1)!;
  assert.deepEqual(
    [4999 + H, 5000 + H, 4999 + 2 * H, 5000 + 2 * H].map((t) => alarmLevel(p, t, H)),
    ['stuck', 'warn', 'warn', 'calm'],
  );
  assert.equal(heldSince(p, 5000 + H, H), 5000);
});

test('a hold of 0 follows the samples exactly', () => {
  const { levels } = run(
    [
      { at: 0, servers: [srv('a', { stuck: 1 })] },
      { at: 1, servers: [srv('a', { deadlocksInRange: 1 })] },
      { at: 2, servers: [srv('a')] },
    ],
    0,
  );
  assert.deepEqual(levels, ['stuck', 'warn', 'calm']);
});

test('a fresh start (new page, range or filter) has no memory', () => {
  assert.equal(alarmLevel(decideAlarm(null, { at: 0, servers: [srv('a')] }), 0, H), 'calm');
  assert.equal(alarmLevel(decideAlarm(null, { at: 0, servers: [srv('a', { deadlocksInRange: 2 })] }), 0, H), 'warn');
});

const arbSample = fc.record({
  gap: fc.integer({ min: 500, max: 10_000 }),
  stuck: fc.nat({ max: 3 }),
  deadlocks: fc.nat({ max: 3 }),
  naive: fc.boolean(),
});

test('property: never green with a naive server in range; red never clears within a hold of the stuck sample clearing, at any instant', () => {
  fc.assert(
    fc.property(fc.array(arbSample, { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 60_000 }), (raw, holdMs) => {
      let at = 0;
      const samples = raw.map((r) => ({
        at: (at += r.gap),
        servers: [srv('x', { stuck: r.stuck, deadlocksInRange: r.deadlocks, naiveInRange: r.naive })],
      }));
      const { states } = run(samples, holdMs);
      let clearedAt: number | null = null;
      samples.forEach((s, i) => {
        const stuck = s.servers[0].stuck > 0;
        if (stuck) clearedAt = null;
        else if (i > 0 && samples[i - 1].servers[0].stuck > 0) clearedAt = s.at;
        // Every instant until the next sample, not just when a sample arrives.
        const next = samples[i + 1]?.at ?? s.at + 3 * holdMs + 1;
        for (const t of [s.at, Math.floor((s.at + next) / 2), next - 1]) {
          const level = alarmLevel(states[i], t, holdMs);
          if (s.servers[0].naiveInRange) assert.notEqual(level, 'calm');
          if (stuck) assert.equal(level, 'stuck');
          if (clearedAt !== null && t - clearedAt < holdMs) assert.equal(level, 'stuck');
        }
      });
    }),
  );
});

test('property: sampled every 5 s, red is left at most once per hold window, never before a hold without a stuck session', () => {
  fc.assert(
    fc.property(fc.array(fc.boolean(), { minLength: 12, maxLength: 120 }), (stuckSeq) => {
      const samples = stuckSeq.map((stuck, i) => ({ at: i * 5000, servers: [srv('x', { stuck: stuck ? 1 : 0 })] }));
      const { levels } = run(samples);
      const red = levels.map((l) => l === 'stuck');
      const exits = red.flatMap((r, i) => (i > 0 && red[i - 1] && !r ? [samples[i].at] : []));
      for (let i = 1; i < exits.length; i++) assert.ok(exits[i] - exits[i - 1] >= H);
      for (const exit of exits) {
        // The last stuck sample before this exit, and the first clear one after it.
        const lastStuck = samples.findLast((s) => s.at < exit && s.servers[0].stuck > 0)!;
        const cleared = samples.find((s) => s.at > lastStuck.at)!;
        assert.ok(exit - cleared.at >= H, `left red ${exit - cleared.at} ms after clearing`);
      }
    }),
  );
});
