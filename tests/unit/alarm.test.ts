import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { HOLD_MS, alarmText, decideAlarm, type AlarmSample, type AlarmState } from '@/lib/ui/alarm';

const srv = (server: string, over: Partial<AlarmSample['servers'][number]> = {}) => ({
  server,
  stuck: 0,
  deadlocksInRange: 0,
  lastDeadlockAt: null,
  naiveInRange: false,
  ...over,
});

function run(samples: AlarmSample[]): AlarmState[] {
  const out: AlarmState[] = [];
  let prev: AlarmState | null = null;
  for (const s of samples) out.push((prev = decideAlarm(prev, s)));
  return out;
}

test('a stuck session is red at once; the alarm names the server', () => {
  const sample = {
    at: 0,
    servers: [srv('demo-us-1', { stuck: 2, deadlocksInRange: 30, lastDeadlockAt: -25_000, naiveInRange: true }), srv('demo-eu-1')],
  };
  assert.equal(decideAlarm({ level: 'calm', lastStuckAt: null, lastTroubleAt: null }, sample).level, 'stuck');
  const t = alarmText(sample, 0);
  assert.equal(t.headline, '2 sessions stuck on demo-us-1');
  assert.deepEqual(t.details, ['last deadlock 25 s ago on demo-us-1', '30 in this range', 'demo-us-1 resumes naively']);
});

test('no stuck session but a naive server in range: amber with recency, never green', () => {
  const sample = {
    at: 10 * HOLD_MS,
    servers: [srv('demo-us-1', { deadlocksInRange: 30, lastDeadlockAt: 10 * HOLD_MS - 25_000, naiveInRange: true })],
  };
  const states = run(Array.from({ length: 20 }, (_, i) => ({ ...sample, at: sample.at + i * 5000 })));
  assert.ok(states.every((s) => s.level === 'warn'));
  assert.equal(alarmText(sample, sample.at).headline, '0 stuck now');
});

test('red steps down only after the hold, then green only after another hold of nothing wrong', () => {
  const states = run([
    { at: 0, servers: [srv('a', { stuck: 1 })] },
    { at: 5000, servers: [srv('a')] },
    { at: HOLD_MS - 1, servers: [srv('a')] },
    { at: HOLD_MS, servers: [srv('a')] },
    { at: 2 * HOLD_MS - 1, servers: [srv('a')] },
    { at: 2 * HOLD_MS, servers: [srv('a')] },
  ]);
  assert.deepEqual(
    states.map((s) => s.level),
    ['stuck', 'stuck', 'stuck', 'warn', 'warn', 'calm'],
  );
});

const arbSample = fc.record({
  gap: fc.integer({ min: 500, max: 10_000 }),
  stuck: fc.nat({ max: 3 }),
  deadlocks: fc.nat({ max: 3 }),
  naive: fc.boolean(),
});

test('property: never green with a naive server in range; red never clears within HOLD_MS of a stuck sample', () => {
  fc.assert(
    fc.property(fc.array(arbSample, { minLength: 1, maxLength: 60 }), (raw) => {
      let at = 0;
      const samples = raw.map((r) => ({
        at: (at += r.gap),
        servers: [srv('x', { stuck: r.stuck, deadlocksInRange: r.deadlocks, naiveInRange: r.naive })],
      }));
      const states = run(samples);
      let lastStuck: number | null = null;
      samples.forEach((s, i) => {
        if (s.servers[0].stuck > 0) lastStuck = s.at;
        if (s.servers[0].naiveInRange) assert.notEqual(states[i].level, 'calm');
        if (lastStuck !== null && s.at - lastStuck < HOLD_MS) assert.equal(states[i].level, 'stuck');
      });
    }),
  );
});

test('property: sampled every 5 s, red↔green flips at most once per hold window', () => {
  fc.assert(
    fc.property(fc.array(fc.boolean(), { minLength: 12, maxLength: 120 }), (stuckSeq) => {
      const samples = stuckSeq.map((stuck, i) => ({ at: i * 5000, servers: [srv('x', { stuck: stuck ? 1 : 0 })] }));
      const levels = run(samples).map((s) => s.level === 'stuck');
      const exits = levels.flatMap((red, i) => (i > 0 && levels[i - 1] && !red ? [samples[i].at] : []));
      for (let i = 1; i < exits.length; i++) assert.ok(exits[i] - exits[i - 1] >= HOLD_MS);
    }),
  );
});
