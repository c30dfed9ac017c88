/**
 * The server-side resume rule from the design note, as a pure function of the
 * token's own timeline: refuse at the upgrade boundary (terminal
 * `session-superseded`, token burned), resume by Last-Event-ID otherwise, and
 * decline once the session is WebSocket-bound or over.
 */
import type { DoorwatchEvent } from '@/lib/contract/event';
import { deriveSessionFacts, isBoundaryResume } from './session-state';

export type ResumeDecision =
  | { action: 'refuse'; reason: 'upgrade_boundary'; upgradeEventId: number }
  | { action: 'resume'; fromEventId: number | null }
  | { action: 'not_applicable'; reason: 'websocket_bound' | 'terminated' };

export interface ResumeRequest {
  /** The client's Last-Event-ID, or null when it sent none. */
  lastEventId: number | null;
}

/** @param timeline the token's events so far (any order, repeats allowed; may be empty). */
export function decideResume(timeline: readonly DoorwatchEvent[], request: ResumeRequest): ResumeDecision {
  const facts = deriveSessionFacts(timeline);
  if (facts.state === 'terminated') return { action: 'not_applicable', reason: 'terminated' };
  if (facts.state === 'websocket_bound') return { action: 'not_applicable', reason: 'websocket_bound' };
  if (isBoundaryResume(facts, request.lastEventId)) {
    return { action: 'refuse', reason: 'upgrade_boundary', upgradeEventId: facts.pendingUpgrade!.eventId };
  }
  return { action: 'resume', fromEventId: request.lastEventId };
}
