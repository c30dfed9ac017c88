/**
 * Derive a SessionSummary from one token's timeline. Pure: the clock comes in
 * as `now` because an unended deadlock becomes `ongoing` with the passage of
 * time, not with the arrival of an event.
 */
import type { DoorwatchEvent } from '@/lib/contract/event';
import type { BoundaryOutcome, SessionFlag, SessionSummary } from '@/lib/contract/summary';
import { timestampMs, toIsoMs } from '@/lib/contract/timestamp';
import { deriveSessionFacts, type SessionFacts } from './session-state';
import { deadlockAsOf } from './deadlock-as-of';

export const DEFAULT_DEADLOCK_THRESHOLD_MS = 10_000;

/** The session that renegotiated this one (its `session.opened.previousToken` is this token). */
export interface SuccessorSession {
  server: string;
  token: string;
  /** That `session.opened` event's `at`. */
  openedAt: string;
}

export interface SummarizeOptions {
  server?: string;
  deadlockThresholdMs?: number;
  /** DOORWATCH_DEADLOCK_MAX_MS (lib/boundary/deadlock-as-of.ts); 0, the default: no maximum. */
  deadlockMaxMs?: number;
  successor?: SuccessorSession | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : toIsoMs(ms));

/**
 * @param timeline events of ONE token, any order, repeats allowed (deduped by id). Must be non-empty.
 * @param now the reader's clock (Date or epoch ms), used only for unended deadlocks.
 */
export function summarize(timeline: readonly DoorwatchEvent[], now: Date | number, options: SummarizeOptions = {}): SessionSummary {
  if (timeline.length === 0) throw new RangeError('summarize needs at least one event');
  return summarizeFacts(deriveSessionFacts(timeline), now, options);
}

/** summarize() from an already folded timeline (ingest folds once for this and resumption health). */
export function summarizeFacts(f: SessionFacts, now: Date | number, options: SummarizeOptions = {}): SessionSummary {
  if (f.token === null) throw new RangeError('summarize needs at least one event');
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const thresholdMs = options.deadlockThresholdMs ?? DEFAULT_DEADLOCK_THRESHOLD_MS;
  const successor = options.successor ?? null;

  const boundaryOutcome: BoundaryOutcome | null = f.boundary === null ? null : (f.answer?.outcome ?? 'pending');
  const deadlock = deadlockAsOf(f.deadlockStart, f.deadlockEnd, nowMs, thresholdMs, options.deadlockMaxMs ?? 0);
  const successorOpenedMs = successor ? timestampMs(successor.openedAt) : null;

  const flags = new Set<SessionFlag>();
  if (f.boundary) flags.add('boundary');
  if (boundaryOutcome === 'refused') flags.add('refused');
  if (boundaryOutcome === 'naive_resume') flags.add('naive_resume');
  if (f.dualNegotiationCount > 0) flags.add('dual_negotiation');
  if (deadlock) flags.add('deadlock');
  if (successor) flags.add('renegotiated');
  if (f.burnedTokenReuseAt !== null) flags.add('burned_token_reuse');

  return {
    server: options.server ?? null,
    token: f.token!,
    state: f.state,
    flags: [...flags].sort(),
    boundaryOutcome,

    openedAt: iso(f.openedAt),
    lastEventAt: iso(f.lastEventAt),
    eventCount: f.eventCount,

    refusalLatencyMs: boundaryOutcome === 'refused' ? f.answer!.at - f.boundary!.at : null,
    deadlock,

    previousToken: f.previousToken,
    successorToken: successor?.token ?? null,
    successorServer: successor?.server ?? null,
    successorOpenedAt: iso(successorOpenedMs),
    // Across servers, so clock skew can make this negative; reported as measured.
    renegotiationLatencyMs: successorOpenedMs !== null && f.refusedAt !== null ? successorOpenedMs - f.refusedAt : null,

    boundaryAt: iso(f.boundary?.at ?? null),
    answeredAt: iso(f.answer?.at ?? null),
    refusedAt: iso(f.refusedAt),
    naiveResumeAt: boundaryOutcome === 'naive_resume' ? iso(f.answer!.at) : null,
    dualNegotiationAt: iso(f.dualNegotiationAt),
    dualNegotiationCount: f.dualNegotiationCount,
    burnedTokenReuseAt: iso(f.burnedTokenReuseAt),
    dropCount: f.dropCount,
    deadlockCandidateSince: f.deadlockEnd === null ? iso(f.deadlockStart) : null,
  };
}
