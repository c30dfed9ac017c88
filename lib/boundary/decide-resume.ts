/**
 * The server-side resume rule from the design note, as a pure function of the
 * token's own timeline: refuse at the upgrade boundary (terminal
 * `session-superseded`, token burned), resume by Last-Event-ID otherwise, and
 * decline once the session is WebSocket-bound or over.
 */
import type { DoorwatchEvent } from '@/lib/contract/event';
import { cursorPosition, deriveSessionFacts, isBoundaryResume } from './session-state';

export type ResumeDecision<Id extends number | string = number> =
  | { action: 'refuse'; reason: 'upgrade_boundary'; upgradeEventId: number }
  | { action: 'resume'; fromEventId: Id | null }
  | { action: 'not_applicable'; reason: 'websocket_bound' | 'terminated' };

export interface ResumeRequest<Id extends number | string = number> {
  /** The client's Last-Event-ID, or null when it sent none. */
  lastEventId: Id | null;
  /** With string ids: the store's position of that event (null: unknown to the store). See docs/contract.md. */
  ordinal?: number | null;
}

/** @param timeline the token's events so far (any order, repeats allowed; may be empty). */
export function decideResume<Id extends number | string = number>(
  timeline: readonly DoorwatchEvent[],
  request: ResumeRequest<Id>,
): ResumeDecision<Id> {
  const facts = deriveSessionFacts(timeline);
  if (facts.state === 'terminated') return { action: 'not_applicable', reason: 'terminated' };
  if (facts.state === 'websocket_bound') return { action: 'not_applicable', reason: 'websocket_bound' };
  if (isBoundaryResume(facts, cursorPosition(request))) {
    return { action: 'refuse', reason: 'upgrade_boundary', upgradeEventId: facts.pendingUpgrade!.eventId };
  }
  return { action: 'resume', fromEventId: request.lastEventId };
}
