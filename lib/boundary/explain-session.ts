// A plain account of what happened at the door, for a person or an assistant, from the design
// note's rule: once the server has durably emitted `upgrade-accepted` and the WebSocket handshake
// has not completed, a resume (a Last-Event-ID at or past that event, or the same token without
// one) must be refused with a terminal `session-superseded`; the token is burned and the client
// must renegotiate. Pure: it reads the session's summary and its ordered timeline, nothing else.
import type { TSessionView } from '@/lib/contract/api/sessions';
import type { ExplanationOutcome } from '@/lib/contract/mcp-tools';

export interface Explanation {
  outcome: ExplanationOutcome;
  /** True when the server followed the rule (or the session never reached the door). */
  conforms: boolean;
  /** One sentence. */
  headline: string;
  /** What happened, in order, one sentence each. */
  account: string[];
}

/** The fields of a timeline event the account reads. */
export interface ExplainedEvent {
  type: string;
  at: string;
  data: Record<string, unknown>;
}

const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`);
const first = (timeline: readonly ExplainedEvent[], type: string) => timeline.find((e) => e.type === type);
const cursorOf = (e: ExplainedEvent | undefined) => {
  const v = e?.data.lastEventId;
  return v === undefined || v === null ? null : String(v);
};

/** Sentences about what happened before and around the door, in timeline order. */
function doorAccount(s: TSessionView, timeline: readonly ExplainedEvent[]): string[] {
  const lines: string[] = [];
  lines.push(s.openedAt ? `Session ${s.token} opened at ${s.openedAt}.` : `Session ${s.token}: its opening was not reported.`);
  if (s.previousToken) lines.push(`It renegotiated from the burned token ${s.previousToken}.`);
  const accepted = first(timeline, 'upgrade.accepted');
  if (!accepted) return lines;
  const eventId = accepted.data.eventId;
  lines.push(
    `At ${accepted.at} the server durably emitted upgrade-accepted${eventId === undefined ? '' : ` (event id ${String(eventId)})`}: the one-way door.`,
  );
  if (s.dropCount > 0) lines.push(`The stream dropped ${s.dropCount} time${s.dropCount === 1 ? '' : 's'}.`);
  const resume = timeline.find((e) => e.type === 'resume.requested' && e.at >= accepted.at);
  if (resume) {
    const cursor = cursorOf(resume);
    lines.push(
      cursor === null
        ? `At ${resume.at} the client came back with the same token and no Last-Event-ID, before the handshake completed.`
        : `At ${resume.at} the client asked to resume with Last-Event-ID ${cursor}, before the handshake completed.`,
    );
  }
  return lines;
}

function answerAccount(s: TSessionView, timeline: readonly ExplainedEvent[]): { outcome: ExplanationOutcome; lines: string[] } {
  const lines: string[] = [];
  let outcome: ExplanationOutcome;
  if (s.naiveResumeAt) {
    outcome = s.deadlock ? 'deadlocked' : 'naive_resume';
    lines.push(`At ${s.naiveResumeAt} the server resumed across the door as if upgrade-accepted were a checkpoint (a naive resume).`);
    if (s.deadlock) {
      lines.push(
        s.deadlock.ongoing
          ? `The client is waiting for a handshake that will never come: deadlocked for ${seconds(s.deadlock.durationMs)} and counting.`
          : s.deadlock.endUnreported
            ? `The client waited for a handshake that never came, for at least ${seconds(s.deadlock.durationMs)} (the longest a deadlock can last here); the server never reported how the session ended.`
            : `The client waited for a handshake that never came: deadlocked for ${seconds(s.deadlock.durationMs)} until ${s.deadlock.endedAt}.`,
      );
    }
  } else if (s.refusedAt) {
    outcome = 'refused_correctly';
    const latency = s.refusalLatencyMs === null ? '' : ` ${seconds(s.refusalLatencyMs)} after the resume`;
    lines.push(`At ${s.refusedAt} the server refused with session-superseded${latency}, as the rule requires: the token is burned.`);
  } else if (s.state === 'websocket_bound') {
    outcome = 'through_the_door';
    lines.push('The WebSocket handshake completed: the session is WebSocket-bound and SSE resumption no longer applies.');
  } else if (s.state === 'upgrade_pending') {
    outcome = 'waiting_at_door';
    lines.push('The handshake has not completed and no resume has been answered yet.');
  } else {
    outcome = 'never_at_door';
    lines.push('The server never emitted upgrade-accepted: ordinary Last-Event-ID resumption applies.');
  }
  if (s.dualNegotiationAt) {
    if (outcome === 'refused_correctly' || outcome === 'waiting_at_door') outcome = 'dual_negotiation';
    lines.push(
      `At ${s.dualNegotiationAt} the server minted another upgrade-accepted for the same token (${s.dualNegotiationCount} dual negotiation${s.dualNegotiationCount === 1 ? '' : 's'}).`,
    );
  }
  if (s.burnedTokenReuseAt) {
    if (outcome === 'refused_correctly') outcome = 'burned_token_reuse';
    lines.push(`At ${s.burnedTokenReuseAt} the burned token was accepted again.`);
  }
  if (s.successorToken) {
    const latency = s.renegotiationLatencyMs === null ? '' : ` ${seconds(s.renegotiationLatencyMs)} later`;
    lines.push(`The client renegotiated as ${s.successorToken}${s.successorServer ? ` on ${s.successorServer}` : ''}${latency}.`);
  }
  const closed = first(timeline, 'session.closed') ?? first(timeline, 'session.timeout');
  if (closed) lines.push(`The session ended (${closed.type}) at ${closed.at}.`);
  return { outcome, lines };
}

/** How SSE resumes went (for sessions of any server, with or without the upgrade extension). */
function resumptionAccount(s: TSessionView): string[] {
  const r = s.resumption;
  const lines: string[] = [];
  if (r.idleResumes > 0) lines.push(`${r.idleResumes} resume(s) answered 200 with nothing although the store held events (idle).`);
  if (r.lossyResumes > r.idleResumes)
    lines.push(`${r.lossyResumes - r.idleResumes} resume(s) replayed fewer events than the store held (lossy).`);
  if (r.checkedResumes > 0 && r.lossyResumes === 0)
    lines.push(`${r.checkedResumes} checked resume(s) replayed everything after the cursor.`);
  if (r.rejectedResumes > 0)
    lines.push(`${r.rejectedResumes} resume(s) were turned down without ending the session (${r.flags.join(', ') || 'rejected'}).`);
  if (r.abandonedAt) lines.push(`The client left without DELETE; the server ended the session as abandoned at ${r.abandonedAt}.`);
  return lines;
}

const HEADLINES: Record<ExplanationOutcome, string> = {
  deadlocked: 'The server resumed across the upgrade door and the client deadlocked: it must refuse instead.',
  naive_resume: 'The server resumed across the upgrade door (a naive resume): it must refuse with session-superseded.',
  dual_negotiation: 'The server negotiated the upgrade twice for one token: it must refuse the second instead.',
  burned_token_reuse: 'The server refused correctly but later accepted the burned token again.',
  refused_correctly: 'The server refused the resume at the upgrade door with session-superseded, as it must.',
  waiting_at_door: 'The session is at the upgrade door: upgrade-accepted was emitted and the handshake has not completed.',
  through_the_door: 'The upgrade completed: the session went through the door to WebSocket.',
  never_at_door: 'The session never reached the upgrade door.',
};

const CONFORMS: ReadonlySet<ExplanationOutcome> = new Set(['refused_correctly', 'waiting_at_door', 'through_the_door', 'never_at_door']);

/** The account of one session; `timeline` in the stored order (at, seq, id). */
export function explainSession(session: TSessionView, timeline: readonly ExplainedEvent[]): Explanation {
  const answer = answerAccount(session, timeline);
  const resumption = resumptionAccount(session);
  const conforms = CONFORMS.has(answer.outcome) && !(answer.outcome === 'never_at_door' && session.resumption.lossyResumes > 0);
  return {
    outcome: answer.outcome,
    conforms,
    headline: HEADLINES[answer.outcome],
    account: [...doorAccount(session, timeline), ...answer.lines, ...resumption],
  };
}
