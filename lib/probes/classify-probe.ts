// Classifies a probe's observed answers against the design note's rule. Pure: no I/O.
// The expected answer of a resume step is not restated here: it is what decideResume (the
// same fold the summaries use) decides for a session whose upgrade is pending at the door.
import { decideResume } from '@/lib/boundary/decide-resume';
import type { DoorwatchEvent } from '@/lib/contract/event';
import type {
  ObservedAnswer,
  ProbeClassification,
  ProbeStepName,
  ProbeVerdict,
  StepClassification,
  StepFinding,
  StepObservation,
  StepVerdict,
} from '@/lib/contract/probe-result';

/** The server's session as the probe left it at the door: opened, upgrade-accepted durable, dropped. */
function doorTimeline(doorEventId: number): DoorwatchEvent[] {
  const at = '2026-01-01T00:00:00.000Z';
  return [
    { id: 'probe.0', token: 'probe', type: 'session.opened', at, seq: 0, data: {} },
    { id: 'probe.1', token: 'probe', type: 'upgrade.accepted', at, seq: 1, data: { eventId: doorEventId } },
    { id: 'probe.2', token: 'probe', type: 'stream.dropped', at, seq: 2, data: {} },
  ];
}

/** Where each resume step puts its cursor relative to the door (docs/probes.md, "The four steps"). */
const STEP_CURSOR: Record<Exclude<ProbeStepName, 'healthy'>, (door: number) => number | null> = {
  reset_at_door: (door) => door,
  reconnect_without_cursor: () => null,
  cursor_before_door: (door) => door - 1,
};

/**
 * The answer the rule asks for. The healthy step must upgrade; a resume step must be refused
 * (`superseded`) exactly when decideResume refuses it, and otherwise resume normally. A step
 * that never reached the door (or never sent its resume) is judged by the cursor it would have
 * sent relative to a door, so `expected` is the same as the table in docs/probes.md whatever
 * happened — the step is then an error anyway.
 */
export function expectedAnswer(
  step: ProbeStepName,
  doorEventId: number | null,
  resume: { lastEventId: number | null } | null,
): ObservedAnswer {
  if (step === 'healthy') return 'upgraded';
  const door = doorEventId ?? 1;
  const request = resume ?? { lastEventId: STEP_CURSOR[step](door) };
  const decision = decideResume(doorTimeline(door), request);
  return decision.action === 'refuse' ? 'superseded' : 'resumed';
}

const REASONS: Record<StepFinding, string> = {
  upgraded: 'the WebSocket handshake completed with mcp.v1',
  refused: 'refused at the door with terminal session-superseded, as the rule requires',
  resumed: 'resumed normally: the cursor was before the door, so replaying is safe',
  deadlock: 'left an idle stream open: a real client would wait for an upgrade until the idle timeout (deadlock)',
  dual_negotiation: 'minted a second upgrade-accepted for the same token (dual negotiation; its handshake conflicts)',
  conflict: 'answered 409 instead of the terminal session-superseded: the client cannot tell it must renegotiate',
  naive_resume: 'resumed as if upgrade-accepted were a checkpoint: the rule requires session-superseded here',
  over_refusal: 'refused a resume whose cursor is before the door: that resume is safe and must be served',
  renegotiation_failed: 'refused correctly, but a fresh session naming the burned token did not upgrade',
  upgrade_rejected: 'the WebSocket handshake of a sole negotiation was rejected',
  unexpected_answer: 'an answer this step cannot produce on a conforming server',
  probe_error: 'the probe could not get an answer (see the detail and transcript); nothing is proven either way',
};

function classified(o: StepObservation, expected: ObservedAnswer, verdict: StepVerdict, finding: StepFinding): StepClassification {
  return { step: o.step, expected, observed: o.answer, verdict, finding, reason: REASONS[finding] };
}

export function classifyStep(o: StepObservation): StepClassification {
  const expected = expectedAnswer(o.step, o.doorEventId, o.resume);
  const is = (verdict: StepVerdict, finding: StepFinding) => classified(o, expected, verdict, finding);
  if (o.answer === 'error') return is('error', 'probe_error');
  // A resume step that never reached the door has nothing to test.
  if (o.step !== 'healthy' && o.doorEventId === null) return is('error', 'probe_error');
  if (o.answer === expected) {
    if (expected === 'superseded' && o.renegotiation !== null && !o.renegotiation.ok) return is('fail', 'renegotiation_failed');
    if (expected === 'resumed' && o.handshakeStatus !== null && o.handshakeStatus !== 101) return is('fail', 'upgrade_rejected');
    return is('pass', expected === 'upgraded' ? 'upgraded' : expected === 'superseded' ? 'refused' : 'resumed');
  }
  switch (o.answer) {
    case 'idle_stream':
      return is('fail', 'deadlock');
    case 'second_upgrade':
      return is('fail', 'dual_negotiation');
    case 'conflict':
      return is('fail', expected === 'upgraded' ? 'upgrade_rejected' : 'conflict');
    case 'resumed':
      return is('fail', 'naive_resume');
    case 'superseded':
      return is('fail', expected === 'resumed' ? 'over_refusal' : 'unexpected_answer');
    default:
      return is('fail', 'unexpected_answer');
  }
}

/** Fails when any step fails; inconclusive when none fails but one could not be answered. */
export function classifyProbe(steps: readonly StepObservation[]): ProbeClassification {
  const classes = steps.map(classifyStep);
  const verdict: ProbeVerdict = classes.some((c) => c.verdict === 'fail')
    ? 'fail'
    : classes.length === 0 || classes.some((c) => c.verdict === 'error')
      ? 'inconclusive'
      : 'pass';
  return { verdict, steps: classes };
}
