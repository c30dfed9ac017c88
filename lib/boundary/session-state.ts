/**
 * The single fold over a token's ordered timeline. Both `summarize` (the
 * dashboard view) and `decideResume` (the server-side rule) derive from it, so
 * "what is a boundary resume" has exactly one definition.
 *
 * All times here are epoch ms; conversion to ISO happens in summarize.
 */
import type { DoorwatchEvent } from '@/lib/contract/event';
import type { SessionState } from '@/lib/contract/summary';
import { timestampMs } from '@/lib/contract/timestamp';
import { orderTimeline } from './timeline-order';

export interface PendingUpgrade {
  /**
   * Position of the `upgrade-accepted` event the handshake is pending for: its integer SSE id, or
   * the store's `ordinal` when the server sent one (string ids).
   */
  eventId: number;
  at: number;
}

export interface SessionFacts {
  token: string | null;
  state: SessionState;
  /** Non-null exactly when state is `upgrade_pending`: the earliest still-pending negotiation. */
  pendingUpgrade: PendingUpgrade | null;

  eventCount: number;
  openedAt: number | null;
  previousToken: string | null;
  lastEventAt: number | null;

  /** Most recent resume.requested, which the next refused/accepted answers. */
  lastRequest: { at: number; boundary: boolean } | null;
  /** First boundary resume. */
  boundary: { at: number; upgradeEventId: number } | null;
  /** First refused/accepted answering a boundary resume at or after the entry. */
  answer: { outcome: 'refused' | 'naive_resume'; at: number } | null;

  refusedAt: number | null;
  dualNegotiationAt: number | null;
  dualNegotiationCount: number;
  /**
   * Negotiations seen, by their upgrade event's position, and 409s by the negotiation they name
   * (`data.eventId`): the server and a probe (client side) may both report one negotiation, and
   * a repeat is the same negotiation, not a second one. Distinct ids only: bounded by the session.
   */
  negotiationsSeen: Set<number>;
  conflictsSeen: Set<string>;
  burnedTokenReuseAt: number | null;
  dropCount: number;

  /**
   * Deadlock tracking. `deadlockStart` is the naive resume's time while the
   * client may be stuck; cleared if the handshake later completes.
   * `deadlockEnd` is the terminating event that ended it.
   */
  deadlockStart: number | null;
  deadlockEnd: number | null;

  /** Resumption health (servers without the upgrade too); see docs/contract.md. */
  checkedResumeCount: number;
  lossyResumeCount: number;
  idleResumeCount: number;
  rejectedResumeCount: number;
  /** Statuses of `resume.rejected` seen (400 unknown cursor, 404 ended session, 409 already connected…). */
  rejectedStatuses: Set<number>;
  abandonedAt: number | null;
}

export function initialFacts(): SessionFacts {
  return {
    token: null,
    state: 'sse_active',
    pendingUpgrade: null,
    eventCount: 0,
    openedAt: null,
    previousToken: null,
    lastEventAt: null,
    lastRequest: null,
    boundary: null,
    answer: null,
    refusedAt: null,
    dualNegotiationAt: null,
    dualNegotiationCount: 0,
    negotiationsSeen: new Set(),
    conflictsSeen: new Set(),
    burnedTokenReuseAt: null,
    dropCount: 0,
    deadlockStart: null,
    deadlockEnd: null,
    checkedResumeCount: 0,
    lossyResumeCount: 0,
    idleResumeCount: 0,
    rejectedResumeCount: 0,
    rejectedStatuses: new Set(),
    abandonedAt: null,
  };
}

/**
 * Where a resume's cursor sits in the store, comparable with PendingUpgrade.eventId: the `ordinal`
 * when given (null = the store does not know the cursor, treated like no cursor: nothing the
 * client holds is known to be at or past the upgrade), else the integer SSE id.
 */
export function cursorPosition(data: { lastEventId: number | string | null; ordinal?: number | null }): number | null {
  if (data.ordinal !== undefined) return data.ordinal;
  return typeof data.lastEventId === 'number' ? data.lastEventId : null;
}

/** The upgrade event's position: its `ordinal` when given, else its integer SSE id. */
export function upgradePosition(data: { eventId: number | string; ordinal?: number }): number {
  // The contract requires an ordinal with a string id, so the fallback is an integer.
  return data.ordinal ?? (data.eventId as number);
}

/**
 * The design note's (1)∧(2)∧(3): an upgrade-accepted is durable, its handshake
 * has not completed, and the resume would treat it as a checkpoint (no cursor,
 * or a cursor at/after the upgrade event).
 */
export function isBoundaryResume(facts: Pick<SessionFacts, 'state' | 'pendingUpgrade'>, lastEventId: number | null): boolean {
  const pending = facts.pendingUpgrade;
  if (facts.state !== 'upgrade_pending' || pending === null) return false;
  return lastEventId === null || lastEventId >= pending.eventId;
}

function terminate(f: SessionFacts, at: number): void {
  if (f.state === 'terminated') return; // terminated is final
  // A terminating event is what ends an open deadlock (the client finally gets an answer).
  if (f.deadlockStart !== null && f.deadlockEnd === null) f.deadlockEnd = at;
  f.state = 'terminated';
  f.pendingUpgrade = null;
}

function markDual(f: SessionFacts, at: number): void {
  f.dualNegotiationCount += 1;
  f.dualNegotiationAt ??= at;
}

/** Advance the fold by one event. Events must be fed in timeline order, deduped. */
export function stepFacts(f: SessionFacts, e: DoorwatchEvent): void {
  const at = timestampMs(e.at);
  f.token ??= e.token;
  f.eventCount += 1;
  f.lastEventAt = at;

  switch (e.type) {
    case 'session.opened':
      f.openedAt ??= at;
      f.previousToken ??= e.data.previousToken ?? null;
      break;

    case 'upgrade.accepted': {
      const position = upgradePosition(e.data);
      // Another report of a negotiation already seen (the probe's view and the server's own).
      if (f.negotiationsSeen.has(position)) break;
      f.negotiationsSeen.add(position);
      if (f.refusedAt !== null) f.burnedTokenReuseAt ??= at;
      if (f.state === 'terminated') break;
      if (f.state === 'upgrade_pending') {
        // Keep the original negotiation as the pending one: the server's
        // session table still holds it, and the client may have seen it.
        markDual(f, at);
      } else {
        // Includes a fresh negotiation after a completed one — not dual.
        f.state = 'upgrade_pending';
        f.pendingUpgrade = { eventId: position, at };
      }
      break;
    }

    case 'upgrade.completed':
      if (f.state === 'terminated') break;
      f.state = 'websocket_bound';
      f.pendingUpgrade = null;
      // The client got its WebSocket after all: no deadlock.
      if (f.deadlockEnd === null) f.deadlockStart = null;
      break;

    case 'upgrade.rejected': {
      if (e.data.status !== 409) break;
      // A 409 naming its negotiation counts once however many report it; one naming none, once per event.
      const named = (e.data as { eventId?: unknown }).eventId;
      const key = typeof named === 'number' || typeof named === 'string' ? `n:${named}` : `e:${e.id}`;
      if (f.conflictsSeen.has(key)) break;
      f.conflictsSeen.add(key);
      markDual(f, at);
      break;
    }

    case 'stream.dropped':
      f.dropCount += 1;
      break;

    case 'resume.requested': {
      const boundary = isBoundaryResume(f, cursorPosition(e.data));
      f.lastRequest = { at, boundary };
      if (boundary && f.boundary === null) {
        f.boundary = { at, upgradeEventId: f.pendingUpgrade!.eventId };
      }
      break;
    }

    case 'resume.refused':
      f.refusedAt ??= at;
      recordAnswer(f, 'refused', at);
      terminate(f, at);
      break;

    case 'resume.accepted':
      if (f.refusedAt !== null) f.burnedTokenReuseAt ??= at;
      recordAnswer(f, 'naive_resume', at);
      if (e.data.available !== undefined) {
        f.checkedResumeCount += 1;
        if (e.data.replayed < e.data.available) f.lossyResumeCount += 1;
        // 200 and nothing sent while the store held events: the client sits on an idle stream.
        if (e.data.replayed === 0 && e.data.available > 0) f.idleResumeCount += 1;
      }
      break;

    case 'resume.rejected':
      // Not an answer in the boundary sense and not terminal: the session (if any) carries on.
      f.rejectedResumeCount += 1;
      f.rejectedStatuses.add(e.data.status);
      break;

    case 'session.abandoned':
      f.abandonedAt ??= at;
      terminate(f, at);
      break;

    case 'session.timeout':
    case 'session.closed':
      terminate(f, at);
      break;
  }
}

function recordAnswer(f: SessionFacts, outcome: 'refused' | 'naive_resume', at: number): void {
  // Only an answer to a boundary resume (the most recent request) counts; a
  // later non-boundary request in between means this answer is not about the boundary.
  if (f.boundary === null || f.answer !== null || !f.lastRequest?.boundary) return;
  f.answer = { outcome, at };
  // A naive resume starts a deadlock only while the client is actually left
  // waiting for a handshake that is still pending.
  if (outcome === 'naive_resume' && f.state === 'upgrade_pending') f.deadlockStart = at;
}

/** Order, dedupe and fold a token's timeline. Throws if events belong to different tokens. */
export function deriveSessionFacts(timeline: readonly DoorwatchEvent[]): SessionFacts {
  const ordered = orderTimeline(timeline);
  const facts = initialFacts();
  for (const e of ordered) {
    if (facts.token !== null && e.token !== facts.token) {
      throw new RangeError(`timeline mixes tokens ${JSON.stringify(facts.token)} and ${JSON.stringify(e.token)}`);
    }
    stepFacts(facts, e);
  }
  return facts;
}
