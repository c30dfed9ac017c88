import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyProbe, classifyStep, expectedAnswer } from '@/lib/probes/classify-probe';
import { OBSERVED_ANSWERS, PROBE_STEPS, type ObservedAnswer, type ProbeStepName, type StepObservation } from '@/lib/contract/probe-result';

const DOOR = 7;

/** The cursor each step sends, as run-probe sends it. */
function cursorOf(step: ProbeStepName, door: number): { lastEventId: number | null } | null {
  if (step === 'healthy') return null;
  if (step === 'reset_at_door') return { lastEventId: door };
  if (step === 'reconnect_without_cursor') return { lastEventId: null };
  return { lastEventId: door - 1 };
}

function obs(step: ProbeStepName, answer: ObservedAnswer, extra: Partial<StepObservation> = {}): StepObservation {
  const renegotiation = step === 'reset_at_door' && answer === 'superseded' ? { ok: true, detail: null, latencyMs: 12 } : null;
  return { step, answer, doorEventId: DOOR, resume: cursorOf(step, DOOR), handshakeStatus: null, renegotiation, ...extra };
}

describe('expected answers come from decideResume', () => {
  test('per step', () => {
    assert.equal(expectedAnswer('healthy', DOOR, null), 'upgraded');
    assert.equal(expectedAnswer('reset_at_door', DOOR, { lastEventId: DOOR }), 'superseded');
    assert.equal(expectedAnswer('reconnect_without_cursor', DOOR, { lastEventId: null }), 'superseded');
    assert.equal(expectedAnswer('cursor_before_door', DOOR, { lastEventId: DOOR - 1 }), 'resumed');
    // A cursor past the door is still at the boundary (condition 3: ≥).
    assert.equal(expectedAnswer('reset_at_door', DOOR, { lastEventId: DOOR + 3 }), 'superseded');
  });

  test('property: refuse exactly without a cursor or with one at/after the door (contract §1)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fc.option(fc.nat({ max: 1_000_000 }), { nil: null }), (door, lastEventId) => {
        const expected = expectedAnswer('reset_at_door', door, { lastEventId });
        assert.equal(expected, lastEventId === null || lastEventId >= door ? 'superseded' : 'resumed');
      }),
      { numRuns: 500 },
    );
  });
});

describe('classifyStep', () => {
  test('a refusing server passes every step', () => {
    const c = classifyProbe([
      obs('healthy', 'upgraded'),
      obs('reset_at_door', 'superseded'),
      obs('reconnect_without_cursor', 'superseded'),
      obs('cursor_before_door', 'resumed', { handshakeStatus: 101 }),
    ]);
    assert.equal(c.verdict, 'pass');
    assert.deepEqual(
      c.steps.map((s) => s.finding),
      ['upgraded', 'refused', 'refused', 'resumed'],
    );
  });

  test('a naive server: deadlock at the door, dual negotiation without a cursor', () => {
    const c = classifyProbe([
      obs('healthy', 'upgraded'),
      obs('reset_at_door', 'idle_stream'),
      obs('reconnect_without_cursor', 'second_upgrade', { handshakeStatus: 409 }),
      obs('cursor_before_door', 'resumed'),
    ]);
    assert.equal(c.verdict, 'fail');
    assert.deepEqual(
      c.steps.map((s) => [s.verdict, s.finding]),
      [
        ['pass', 'upgraded'],
        ['fail', 'deadlock'],
        ['fail', 'dual_negotiation'],
        ['pass', 'resumed'],
      ],
    );
    assert.match(c.steps[1].reason, /idle timeout/);
  });

  test('a server that answers 409 to the second negotiation: refuses, but not with session-superseded', () => {
    const c = classifyStep(obs('reconnect_without_cursor', 'conflict'));
    assert.deepEqual([c.verdict, c.finding, c.expected], ['fail', 'conflict', 'superseded']);
    assert.equal(classifyStep(obs('healthy', 'conflict')).finding, 'upgrade_rejected');
  });

  test('replaying as if the door were a checkpoint, and refusing a safe resume, both fail', () => {
    assert.equal(classifyStep(obs('reset_at_door', 'resumed')).finding, 'naive_resume');
    assert.equal(classifyStep(obs('cursor_before_door', 'superseded')).finding, 'over_refusal');
    assert.equal(classifyStep(obs('cursor_before_door', 'idle_stream')).finding, 'deadlock');
  });

  test('a refusal whose renegotiation fails, a replay whose handshake is rejected', () => {
    const r = classifyStep(obs('reset_at_door', 'superseded', { renegotiation: { ok: false, detail: 'handshake 500', latencyMs: 30 } }));
    assert.deepEqual([r.verdict, r.finding], ['fail', 'renegotiation_failed']);
    const h = classifyStep(obs('cursor_before_door', 'resumed', { handshakeStatus: 409 }));
    assert.deepEqual([h.verdict, h.finding], ['fail', 'upgrade_rejected']);
  });

  test('errors prove nothing: inconclusive, unless another step failed', () => {
    assert.equal(classifyStep(obs('healthy', 'error')).verdict, 'error');
    assert.equal(
      classifyStep(obs('reset_at_door', 'superseded', { doorEventId: null })).verdict,
      'error',
      'no door reached: nothing tested',
    );
    assert.equal(classifyProbe([obs('healthy', 'upgraded'), obs('reset_at_door', 'error')]).verdict, 'inconclusive');
    assert.equal(classifyProbe([obs('healthy', 'error'), obs('reset_at_door', 'idle_stream')]).verdict, 'fail');
    assert.equal(classifyProbe([]).verdict, 'inconclusive');
  });
});

describe('classification properties', () => {
  const stepArb = fc.constantFrom(...PROBE_STEPS);
  const answerArb = fc.constantFrom(...OBSERVED_ANSWERS);
  const obsArb = fc
    .record({
      step: stepArb,
      answer: answerArb,
      door: fc.option(fc.nat({ max: 50 }), { nil: null }),
      handshakeStatus: fc.option(fc.constantFrom(101, 409, 500), { nil: null }),
      renegotiationOk: fc.option(fc.boolean(), { nil: null }),
    })
    .map(({ step, answer, door, handshakeStatus, renegotiationOk }): StepObservation => ({
      step,
      answer,
      doorEventId: door,
      resume: door === null ? (step === 'healthy' ? null : { lastEventId: null }) : cursorOf(step, door),
      handshakeStatus,
      renegotiation: renegotiationOk === null ? null : { ok: renegotiationOk, detail: null, latencyMs: 1 },
    }));

  test('a step passes only when it observed what the rule expects; an error never passes or fails', () => {
    fc.assert(
      fc.property(obsArb, (o) => {
        const c = classifyStep(o);
        assert.equal(c.expected, expectedAnswer(o.step, o.doorEventId, o.resume));
        assert.equal(c.observed, o.answer);
        if (c.verdict === 'pass') assert.equal(o.answer, c.expected);
        if (o.answer === 'error') assert.equal(c.verdict, 'error');
        if (o.answer !== 'error' && o.answer !== c.expected && (o.step === 'healthy' || o.doorEventId !== null))
          assert.equal(c.verdict, 'fail');
      }),
      { numRuns: 1_000 },
    );
  });

  test('the probe fails iff a step fails, passes iff every step passes', () => {
    fc.assert(
      fc.property(fc.array(obsArb, { maxLength: 6 }), (steps) => {
        const c = classifyProbe(steps);
        const verdicts = c.steps.map((s) => s.verdict);
        assert.equal(c.verdict === 'fail', verdicts.includes('fail'));
        assert.equal(c.verdict === 'pass', verdicts.length > 0 && verdicts.every((v) => v === 'pass'));
      }),
      { numRuns: 1_000 },
    );
  });

  test('any wrong answer in a conforming probe turns it into a failure', () => {
    const conforming = PROBE_STEPS.map((step) => obs(step, expectedAnswer(step, DOOR, cursorOf(step, DOOR))));
    fc.assert(
      fc.property(fc.nat({ max: PROBE_STEPS.length - 1 }), answerArb, (i, answer) => {
        fc.pre(answer !== 'error' && answer !== conforming[i].answer);
        const steps = conforming.map((o, j) => (j === i ? { ...o, answer, renegotiation: null } : o));
        assert.equal(classifyProbe(steps).verdict, 'fail');
      }),
    );
    assert.equal(classifyProbe(conforming).verdict, 'pass');
  });
});
