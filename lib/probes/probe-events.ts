// What a probe observed, as contract events (lib/contract/event.ts) for the sessions it opened:
// stored through the normal ingest write path under the probed server, so a probe's sessions
// have timelines operators can open like any other (marked synthetic). Pure.
//
// The events are the client's view: the probe saw the door, reset the stream, sent the resume
// and got an answer. Each is stamped at the moment the step observed it (`moments`, the
// transcript's clock), so that when the probed server reports the same session its events and
// the probe's interleave as they happened on the wire. A second report of the same negotiation
// (the door's `upgrade.accepted`, a 409 naming it) is recognised by its `eventId`, not counted
// twice (lib/boundary/session-state.ts).
import type { DoorwatchEvent } from '@/lib/contract/event';
import type { ProbeResult, StepMoments, StepResult } from '@/lib/contract/probe-result';
import { toIsoMs } from '@/lib/contract/timestamp';

type Draft = Omit<DoorwatchEvent, 'id' | 'token' | 'at' | 'seq'> & { offsetMs: number };

const ev = (type: DoorwatchEvent['type'], offsetMs: number, data: Record<string, unknown> = {}): Draft =>
  ({ type, offsetMs, data }) as Draft;

/** The id of a second negotiation's upgrade-accepted, from the step's detail (the door + 1 if unsaid). */
function secondDoorOf(step: StepResult): number {
  const m = step.detail ? /second upgrade-accepted (\d{1,15})/.exec(step.detail) : null;
  return m ? Number(m[1]) : (step.doorEventId ?? 0) + 1;
}

/** The step's moments; runs stored before moments were kept get the old spacing (1 ms apart). */
function momentsOf(step: StepResult): StepMoments {
  if (step.moments) return step.moments;
  const latency = step.latencyMs ?? 0;
  const request = step.step === 'healthy' ? 1 : 3;
  const opened = 4 + latency;
  return {
    door: 1,
    reset: 2,
    request,
    answer: request + latency,
    successorOpened: opened,
    successorDone: opened + (step.renegotiation?.latencyMs ?? 1),
  };
}

function probedSession(step: StepResult): Draft[] {
  const m = momentsOf(step);
  const door = m.door ?? 0;
  const answered = m.answer ?? m.request ?? door;
  const end = Math.max(step.durationMs, answered + 1);
  const out: Draft[] = [ev('session.opened', 0)];
  if (step.doorEventId === null) return [...out, ev('session.closed', end, { reason: `probe: ${step.detail ?? step.answer}` })];
  out.push(ev('upgrade.accepted', door, { eventId: step.doorEventId }));
  if (step.step === 'healthy') {
    if (step.answer === 'upgraded') out.push(ev('upgrade.completed', answered));
    else if (step.handshakeStatus !== null)
      out.push(ev('upgrade.rejected', answered, { status: step.handshakeStatus, eventId: step.doorEventId }));
    return [...out, ev('session.closed', end, { reason: 'probe done' })];
  }
  if (m.reset !== null) out.push(ev('stream.dropped', m.reset, { reason: 'probe: TCP reset inside the upgrade window' }));
  if (step.resume === null) return [...out, ev('session.closed', end, { reason: `probe: ${step.detail ?? step.answer}` })];
  out.push(ev('resume.requested', m.request ?? m.reset ?? door, { lastEventId: step.resume.lastEventId }));
  switch (step.answer) {
    case 'superseded':
      // Burned: nothing follows on this token.
      return [...out, ev('resume.refused', answered, { reason: 'session-superseded' })];
    case 'resumed':
      out.push(ev('resume.accepted', answered, { replayed: 1 }));
      if (step.handshakeStatus === 101) out.push(ev('upgrade.completed', end - 1));
      else if (step.handshakeStatus !== null)
        out.push(ev('upgrade.rejected', end - 1, { status: step.handshakeStatus, eventId: step.doorEventId }));
      break;
    case 'idle_stream':
      // The server took the resume and sent nothing: the naive resume a real client would wait on.
      out.push(ev('resume.accepted', answered, { replayed: 0 }));
      break;
    case 'second_upgrade': {
      const second = secondDoorOf(step);
      out.push(ev('resume.accepted', answered, { replayed: 0 }), ev('upgrade.accepted', answered, { eventId: second }));
      if (step.handshakeStatus !== null && step.handshakeStatus !== 101)
        out.push(ev('upgrade.rejected', end - 1, { status: step.handshakeStatus, eventId: second }));
      break;
    }
    default:
      break;
  }
  return [...out, ev('session.closed', end, { reason: `probe done (${step.answer})` })];
}

function renegotiatedSession(step: StepResult, burned: string): Draft[] {
  const r = step.renegotiation;
  const m = momentsOf(step);
  const opened = m.successorOpened ?? m.answer ?? 0;
  const done = Math.max(opened, m.successorDone ?? opened);
  const out: Draft[] = [ev('session.opened', opened, { previousToken: burned })];
  if (r?.ok) out.push(ev('upgrade.completed', done));
  const end = Math.max(step.durationMs, done + 1);
  return [...out, ev('session.closed', end, { reason: r?.ok ? 'probe done' : `probe: ${r?.detail ?? 'renegotiation failed'}` })];
}

/** Contract events for every session the probe opened; ids are unique per run (`probe.<runId>.…`). */
export function probeEvents(runId: string, result: ProbeResult): DoorwatchEvent[] {
  const out: DoorwatchEvent[] = [];
  result.steps.forEach((step, i) => {
    const [token, successor] = step.tokens;
    if (token === undefined) return;
    const t0 = Date.parse(step.startedAt);
    const sessions: [string, Draft[]][] = [[token, probedSession(step)]];
    if (successor !== undefined) sessions.push([successor, renegotiatedSession(step, token)]);
    for (const [tok, drafts] of sessions) {
      drafts.forEach((d, n) => {
        const { offsetMs, ...rest } = d;
        out.push({
          ...rest,
          id: `probe.${runId}.${i}.${tok === token ? 'a' : 'b'}.${n}`,
          token: tok,
          at: toIsoMs(t0 + offsetMs),
          seq: n,
        } as DoorwatchEvent);
      });
    }
  });
  return out;
}

/** Every token the probe opened. */
export const probeTokens = (result: ProbeResult): string[] => result.steps.flatMap((s) => s.tokens);
