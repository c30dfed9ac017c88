// What a probe observed, as contract events (lib/contract/event.ts) for the sessions it opened:
// stored through the normal ingest write path under the probed server, so a probe's sessions
// have timelines operators can open like any other (marked synthetic). Pure.
//
// The events are the client's view: the probe saw the door, reset the stream, sent the resume
// and got an answer. Times come from the step's start and the measured latency; the steps'
// transcripts keep the exact wire.
import type { DoorwatchEvent } from '@/lib/contract/event';
import type { ProbeResult, StepResult } from '@/lib/contract/probe-result';
import { toIsoMs } from '@/lib/contract/timestamp';

type Draft = Omit<DoorwatchEvent, 'id' | 'token' | 'at' | 'seq'> & { offsetMs: number };

const ev = (type: DoorwatchEvent['type'], offsetMs: number, data: Record<string, unknown> = {}): Draft =>
  ({ type, offsetMs, data }) as Draft;

/** The id of a second negotiation's upgrade-accepted, from the step's detail (the door + 1 if unsaid). */
function secondDoorOf(step: StepResult): number {
  const m = step.detail ? /second upgrade-accepted (\d{1,15})/.exec(step.detail) : null;
  return m ? Number(m[1]) : (step.doorEventId ?? 0) + 1;
}

function probedSession(step: StepResult): Draft[] {
  const end = Math.max(step.durationMs, 4 + (step.latencyMs ?? 0));
  const out: Draft[] = [ev('session.opened', 0)];
  if (step.doorEventId === null) return [...out, ev('session.closed', end, { reason: `probe: ${step.detail ?? step.answer}` })];
  out.push(ev('upgrade.accepted', 1, { eventId: step.doorEventId }));
  if (step.step === 'healthy') {
    const at = 2 + (step.latencyMs ?? 0);
    if (step.answer === 'upgraded') out.push(ev('upgrade.completed', at));
    else if (step.handshakeStatus !== null) out.push(ev('upgrade.rejected', at, { status: step.handshakeStatus }));
    return [...out, ev('session.closed', end + 1, { reason: 'probe done' })];
  }
  out.push(ev('stream.dropped', 2, { reason: 'probe: TCP reset inside the upgrade window' }));
  if (step.resume === null) return [...out, ev('session.closed', end, { reason: `probe: ${step.detail ?? step.answer}` })];
  out.push(ev('resume.requested', 3, { lastEventId: step.resume.lastEventId }));
  const at = 3 + (step.latencyMs ?? 0);
  switch (step.answer) {
    case 'superseded':
      // Burned: nothing follows on this token.
      return [...out, ev('resume.refused', at, { reason: 'session-superseded' })];
    case 'resumed':
      out.push(ev('resume.accepted', at, { replayed: 1 }));
      if (step.handshakeStatus === 101) out.push(ev('upgrade.completed', at + 1));
      else if (step.handshakeStatus !== null) out.push(ev('upgrade.rejected', at + 1, { status: step.handshakeStatus }));
      break;
    case 'idle_stream':
      // The server took the resume and sent nothing: the naive resume a real client would wait on.
      out.push(ev('resume.accepted', at, { replayed: 0 }));
      break;
    case 'second_upgrade':
      out.push(ev('resume.accepted', at, { replayed: 0 }), ev('upgrade.accepted', at, { eventId: secondDoorOf(step) }));
      if (step.handshakeStatus !== null && step.handshakeStatus !== 101)
        out.push(ev('upgrade.rejected', at + 1, { status: step.handshakeStatus }));
      break;
    default:
      break;
  }
  return [...out, ev('session.closed', end + 2, { reason: `probe done (${step.answer})` })];
}

function renegotiatedSession(step: StepResult, burned: string): Draft[] {
  const r = step.renegotiation;
  const opened = 4 + (step.latencyMs ?? 0);
  const end = opened + (r?.latencyMs ?? 1);
  const out: Draft[] = [ev('session.opened', opened, { previousToken: burned })];
  if (r?.ok) out.push(ev('upgrade.completed', end));
  return [...out, ev('session.closed', end + 1, { reason: r?.ok ? 'probe done' : `probe: ${r?.detail ?? 'renegotiation failed'}` })];
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
