// Plain words for a door probe's codes (docs/probes.md): what each step tries, what a server
// answered and why a step passed or failed. The code stays in the cell's title, so an operator
// can still look it up in the docs or the API.
import type { ObservedAnswer, ProbeStepName, ProbeVerdict, StepFinding, StepVerdict } from '@/lib/contract/probe-result';

export const STEP_WORDS: Record<ProbeStepName, { label: string; hint: string }> = {
  healthy: { label: 'Plain upgrade', hint: 'Open a session and upgrade at once: the endpoint, credential and WebSocket work.' },
  reset_at_door: {
    label: 'Resume at the door',
    hint: 'Drop the connection right after the upgrade offer, then resume from it: the server must refuse (session-superseded).',
  },
  reconnect_without_cursor: {
    label: 'Reconnect without cursor',
    hint: 'Drop at the door, then reconnect with no Last-Event-ID: the server must refuse instead of offering a second upgrade.',
  },
  cursor_before_door: {
    label: 'Resume before the door',
    hint: 'Drop at the door, then resume from the event before it: the server must resume normally (no needless refusal).',
  },
};

export const ANSWER_WORDS: Record<ObservedAnswer, string> = {
  upgraded: 'upgraded (101)',
  superseded: 'refused (superseded)',
  idle_stream: 'silent stream',
  second_upgrade: 'second upgrade offer',
  conflict: '409 conflict',
  resumed: 'resumed',
  error: 'no answer (error)',
};

export const FINDING_WORDS: Record<StepFinding, string> = {
  upgraded: 'upgraded',
  refused: 'refused correctly',
  resumed: 'resumed correctly',
  deadlock: 'deadlock',
  dual_negotiation: 'dual negotiation',
  conflict: '409 instead of superseded',
  naive_resume: 'naive resume',
  over_refusal: 'refused a safe resume',
  renegotiation_failed: 'renegotiation failed',
  upgrade_rejected: 'upgrade rejected',
  unexpected_answer: 'unexpected answer',
  probe_error: 'could not test',
};

export const VERDICT_WORDS: Record<ProbeVerdict | StepVerdict, string> = {
  pass: 'pass',
  fail: 'fail',
  inconclusive: 'inconclusive',
  error: 'not tested',
};
