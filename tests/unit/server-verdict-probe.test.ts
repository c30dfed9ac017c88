// combineVerdict: the conformance verdict from observed traffic and the latest door probe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineVerdict, type VerdictCounts } from '@/lib/queries/server-verdicts';
import type { TServerProbeSummary } from '@/lib/contract/api/servers';

const NOW = Date.parse('2026-12-01T10:44:00.000Z');
const none: VerdictCounts = { boundary: 0, refused: 0, naiveResumes: 0, dualNegotiations: 0, burnedTokenReuses: 0 };
const refusing: VerdictCounts = { ...none, boundary: 4, refused: 4 };
const naive: VerdictCounts = { ...none, boundary: 3, naiveResumes: 2, dualNegotiations: 1 };
const probe = (
  verdict: TServerProbeSummary['verdict'],
  failedSteps: TServerProbeSummary['failedSteps'] = [],
  at = '2026-12-01T10:42:00.000Z',
): TServerProbeSummary => ({
  runId: 'r',
  startedAt: at,
  verdict,
  failedSteps,
});

test('a passed probe alone makes the verdict "refuses" and says when it probed', () => {
  assert.deepEqual(combineVerdict(none, probe('pass'), NOW), { verdict: 'refuses', evidence: 'probe', text: 'refuses — probed 2 min ago' });
  assert.equal(combineVerdict(refusing, probe('pass'), NOW).text, 'refuses — probed 2 min ago, and 4 sessions refused');
  assert.equal(combineVerdict(refusing, probe('pass'), NOW).evidence, 'probe_and_traffic');
});

test('a probe that shows naive answers makes it naive, with the probe time and the observed sessions', () => {
  const failed = probe('fail', [{ step: 'reset_at_door', finding: 'deadlock' }]);
  assert.deepEqual(combineVerdict(naive, failed, NOW), {
    verdict: 'naive',
    evidence: 'probe_and_traffic',
    text: 'resumes naively — probe at 10:42, and 3 sessions observed',
  });
  assert.deepEqual(combineVerdict(none, failed, NOW), { verdict: 'naive', evidence: 'probe', text: 'resumes naively — probe at 10:42' });
  // A probe overrides refusing traffic: the door was tested directly.
  assert.equal(combineVerdict(refusing, probe('fail', [{ step: 'reconnect_without_cursor', finding: 'conflict' }]), NOW).verdict, 'naive');
});

test('observed naive traffic wins over a passed probe, and the text says the probe passed', () => {
  const v = combineVerdict(naive, probe('pass'), NOW);
  assert.equal(v.verdict, 'naive');
  assert.equal(v.evidence, 'traffic');
  assert.equal(v.text, 'resumes naively — 3 sessions observed (the probe at 10:42 passed)');
});

test('a probe failing for another reason or inconclusive leaves the traffic verdict and says so', () => {
  const over = probe('fail', [{ step: 'cursor_before_door', finding: 'over_refusal' }]);
  assert.deepEqual(combineVerdict(refusing, over, NOW), {
    verdict: 'refuses',
    evidence: 'traffic',
    text: 'refuses — 4 sessions refused; probe at 10:42 failed (over_refusal)',
  });
  assert.deepEqual(combineVerdict(none, probe('inconclusive', [], '2026-11-30T09:00:00.000Z'), NOW), {
    verdict: 'unknown',
    evidence: 'none',
    text: 'unknown — no boundary resume observed; probe at 2026-11-30 09:00 inconclusive',
  });
  assert.deepEqual(combineVerdict(none, null, NOW), {
    verdict: 'unknown',
    evidence: 'none',
    text: 'unknown — no probe and no boundary resume observed yet',
  });
});

test('naive traffic with a later inconclusive or otherwise failed probe says so, not only the naive evidence', () => {
  assert.deepEqual(combineVerdict(naive, probe('inconclusive'), NOW), {
    verdict: 'naive',
    evidence: 'traffic',
    text: 'resumes naively — 3 sessions observed; probe at 10:42 inconclusive',
  });
  assert.equal(
    combineVerdict(naive, probe('fail', [{ step: 'cursor_before_door', finding: 'over_refusal' }]), NOW).text,
    'resumes naively — 3 sessions observed; probe at 10:42 failed (over_refusal)',
  );
});

test('without a probe the verdict is the traffic verdict', () => {
  assert.equal(combineVerdict(refusing, null, NOW).verdict, 'refuses');
  assert.equal(combineVerdict(naive, null, NOW).text, 'resumes naively — 3 sessions observed');
  assert.equal(
    combineVerdict(refusing, probe('pass', [], '2026-12-01T07:40:00.000Z'), NOW).text,
    'refuses — probed 3 h ago, and 4 sessions refused',
  );
});
