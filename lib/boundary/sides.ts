/**
 * Which side of the one-way door (`upgrade.accepted`) client and server were on after each
 * event of one token's timeline:
 *
 *   sse     — SSE stream, no upgrade promised (or the server handed back an idle stream)
 *   ws      — past the door: upgrade promised / awaiting the handshake / WebSocket-bound
 *   burned  — the token was refused with session-superseded; only a new token goes on
 *   closed  — timed out or closed without a refusal
 *
 * A naive resume leaves the client on the WebSocket side (waiting for a handshake) while the
 * server is back on the SSE side: the disagreement that deadlocks.
 *
 * The server's bookkeeping (is an upgrade pending, since which event id; is the session
 * WebSocket-bound; is this a second negotiation) is not tracked here: it comes from the one fold
 * in `session-state.ts` (`stepFacts`), so "pending door", "dual negotiation" and the boundary
 * rule mean exactly what they mean for summaries and `decideResume`. What this adds is the
 * transport each party is on, which the facts do not need (e.g. a naive server serves SSE while
 * its session table still holds the pending upgrade).
 *
 * Pure: no React, no I/O. The timeline is ordered and deduped like every other derivation
 * (`orderTimeline`), so any delivery order of the same events gives the same sides.
 */
import type { DoorwatchEvent } from '@/lib/contract/event';
import { cursorPosition, initialFacts, isBoundaryResume, stepFacts, type SessionFacts } from './session-state';
import { orderTimeline } from './timeline-order';

export type Side = 'sse' | 'ws' | 'burned' | 'closed';

export interface Sides {
  client: Side;
  server: Side;
}

export interface SideStep extends Sides {
  /** The event (contract `id`) this step follows. */
  eventId: string;
  /** This event is the door (an upgrade.accepted). */
  door: boolean;
  /** A second upgrade.accepted while one is pending (dual negotiation, as the fold counts it). */
  dual: boolean;
  /** Client and server disagree after this event. */
  disagree: boolean;
  /** This event is the resume.accepted that answered the boundary entry naively. */
  naiveAnswer: boolean;
  /** This event is the boundary entry: the first resume.requested inside the boundary. */
  boundaryEntry: boolean;
  /** This event is the resume.refused that answered the boundary entry (the correct answer). */
  refusedAnswer: boolean;
}

/** Before any event: a plain SSE stream. */
export const INITIAL_SIDES: Readonly<Sides> = { client: 'sse', server: 'sse' };

/** What the side rules read from the fold before the event is applied. */
type Before = Pick<SessionFacts, 'state' | 'pendingUpgrade' | 'dualNegotiationCount' | 'answer' | 'boundary'>;

/**
 * The sides after `e`, given the sides and the facts just before it (`before`) and the facts
 * after it (`after` = `before` stepped by `e`).
 */
export function nextSides(prev: Sides, before: Before, after: SessionFacts, e: DoorwatchEvent): Sides {
  let { client, server } = prev;
  switch (e.type) {
    case 'session.opened':
      client = 'sse';
      server = 'sse';
      break;
    case 'upgrade.accepted':
      // Also on a burned token (a burned-token reuse): the server promised an upgrade again.
      client = 'ws';
      server = 'ws';
      break;
    case 'upgrade.completed':
      client = 'ws';
      server = 'ws';
      break;
    case 'upgrade.rejected':
      // The handshake is refused (409 on a second negotiation): the client falls back to SSE
      // while the server still believes the session is WebSocket-bound.
      client = 'sse';
      server = 'ws';
      break;
    case 'resume.requested': {
      if (before.state === 'terminated') {
        // A request on a refused/closed token moves nobody; the server's answer (if any) does.
      } else if (e.data.lastEventId !== null) {
        // A cursor at/after the pending upgrade (the fold's boundary rule): the client treats the
        // upgrade as a checkpoint, so it is past the door. Any other cursor: back on SSE.
        client = isBoundaryResume(before, cursorPosition(e.data)) ? 'ws' : 'sse';
      } else if (before.pendingUpgrade !== null || before.state === 'websocket_bound') {
        // No Last-Event-ID after a negotiation: the client starts a fresh SSE stream.
        client = 'sse';
      }
      break;
    }
    case 'resume.refused':
      client = 'burned';
      server = 'burned';
      break;
    case 'resume.accepted':
      // Accepting a resume puts the server on the SSE side; a client that already passed a door
      // that is still pending stays there, waiting for a handshake that will not come.
      server = 'sse';
      if (after.pendingUpgrade === null) client = 'sse';
      break;
    case 'session.timeout':
    case 'session.closed':
      if (client !== 'burned') client = 'closed';
      if (server !== 'burned') server = 'closed';
      break;
    case 'stream.dropped':
      break;
  }
  return { client, server };
}

/**
 * The sides after each event of one token's timeline, in timeline order (ordered and deduped by
 * id with `orderTimeline`; events of other tokens are not filtered out: pass one token's events).
 */
export function deriveSides(timeline: readonly DoorwatchEvent[]): SideStep[] {
  const facts = initialFacts();
  let sides: Sides = INITIAL_SIDES;
  const out: SideStep[] = [];
  for (const e of orderTimeline(timeline)) {
    const before: Before = {
      state: facts.state,
      pendingUpgrade: facts.pendingUpgrade,
      dualNegotiationCount: facts.dualNegotiationCount,
      answer: facts.answer,
      boundary: facts.boundary,
    };
    stepFacts(facts, e);
    sides = nextSides(sides, before, facts, e);
    out.push({
      eventId: e.id,
      ...sides,
      door: e.type === 'upgrade.accepted',
      dual: e.type === 'upgrade.accepted' && facts.dualNegotiationCount > before.dualNegotiationCount,
      disagree: sides.client !== sides.server,
      naiveAnswer: before.answer === null && facts.answer?.outcome === 'naive_resume',
      boundaryEntry: before.boundary === null && facts.boundary !== null,
      refusedAnswer: before.answer === null && facts.answer?.outcome === 'refused',
    });
  }
  return out;
}

/**
 * Who is left holding the door after a naive answer, read from the lanes at that answer:
 *
 *   client_awaits_handshake — the resume carried a cursor at/after the door: the client treats
 *     the upgrade as a checkpoint and waits, on the WebSocket side, for a handshake the server
 *     (back on SSE) will never drive. The deadlock the design note observed.
 *   server_holds_upgrade — no Last-Event-ID on the same token (condition 3's second clause):
 *     the client started a fresh SSE stream and the server served it, so both lanes are SSE;
 *     but the server's session table still holds the pending upgrade, so the token is stuck
 *     until it ends, and the next negotiation on it collides (409).
 *
 * Both are naive answers and both count as a deadlock while the upgrade stays pending; only the
 * words differ, so the page never says "the client waits" while its lane shows SSE.
 * Null when the boundary was not answered naively.
 */
export type NaiveShape = 'client_awaits_handshake' | 'server_holds_upgrade';

export function naiveShape(steps: readonly SideStep[]): NaiveShape | null {
  const answer = steps.find((s) => s.naiveAnswer);
  if (!answer) return null;
  return answer.client === 'ws' ? 'client_awaits_handshake' : 'server_holds_upgrade';
}
