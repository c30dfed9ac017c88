// A stored Session row → the API's session view, deciding `deadlock`/`ongoing` with the reader's clock.
import { SESSION_FLAGS, SESSION_STATES, BOUNDARY_OUTCOMES, type SessionFlag } from '@/lib/contract/summary';
import type { TSessionView } from '@/lib/contract/api/sessions';
import { RESUMPTION_FLAGS, type ResumptionHealth } from '@/lib/contract/resumption';
import type { TChainLink } from '@/lib/contract/api/session-detail';
import type { SessionRow } from '@/lib/store/session-row';
import { toIsoMs } from '@/lib/contract/timestamp';
import { deadlockAsOf } from '@/lib/boundary/deadlock-as-of';

const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : toIsoMs(Number(ms)));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function oneOf<T extends string>(values: readonly T[], v: unknown, fallback: T): T {
  return (values as readonly unknown[]).includes(v) ? (v as T) : fallback;
}

/** Deadlock as of `nowMs`, from the stored start/end (the rule itself lives in lib/boundary). */
export function deadlockOf(
  row: Pick<SessionRow, 'deadlockStartedAt' | 'deadlockEndedAt'>,
  nowMs: number,
  thresholdMs: number,
  maxMs: number,
): TSessionView['deadlock'] {
  return deadlockAsOf(num(row.deadlockStartedAt), num(row.deadlockEndedAt), nowMs, thresholdMs, maxMs);
}

export function flagsOf(
  row: Pick<SessionRow, 'flags' | 'deadlockStartedAt' | 'deadlockEndedAt'>,
  nowMs: number,
  thresholdMs: number,
  maxMs: number,
): SessionFlag[] {
  const set = new Set<SessionFlag>();
  for (const f of String(row.flags ?? '').split(' ')) if ((SESSION_FLAGS as readonly string[]).includes(f)) set.add(f as SessionFlag);
  set.delete('deadlock');
  if (deadlockOf(row, nowMs, thresholdMs, maxMs)) set.add('deadlock');
  return [...set].sort();
}

/** The stored resumption health (flags picked out of the shared "flags" text). */
export function resumptionOfRow(
  row: Pick<SessionRow, 'flags' | 'checkedResumes' | 'lossyResumes' | 'idleResumes' | 'rejectedResumes' | 'abandonedAt'>,
): ResumptionHealth {
  const words = new Set(String(row.flags ?? '').split(' '));
  return {
    flags: RESUMPTION_FLAGS.filter((f) => words.has(f)),
    checkedResumes: Number(row.checkedResumes ?? 0),
    lossyResumes: Number(row.lossyResumes ?? 0),
    idleResumes: Number(row.idleResumes ?? 0),
    rejectedResumes: Number(row.rejectedResumes ?? 0),
    abandonedAt: iso(row.abandonedAt),
  };
}

export function toSessionView(row: SessionRow, nowMs: number, thresholdMs: number, maxMs: number): TSessionView {
  const unended = num(row.deadlockStartedAt) !== null && num(row.deadlockEndedAt) === null;
  return {
    server: row.server,
    token: row.token,
    state: oneOf(SESSION_STATES, row.state, 'sse_active'),
    flags: flagsOf(row, nowMs, thresholdMs, maxMs),
    boundaryOutcome: row.boundaryOutcome === null ? null : oneOf(BOUNDARY_OUTCOMES, row.boundaryOutcome, 'pending'),
    openedAt: iso(row.openedAt),
    firstEventAt: toIsoMs(Number(row.firstEventAt)),
    lastEventAt: iso(row.lastEventAt),
    eventCount: Number(row.eventCount),
    refusalLatencyMs: num(row.refusalLatencyMs),
    deadlock: deadlockOf(row, nowMs, thresholdMs, maxMs),
    previousToken: row.previousToken,
    successorToken: row.successorToken,
    successorServer: row.successorServer,
    successorOpenedAt: iso(row.successorOpenedAt),
    renegotiationLatencyMs: num(row.renegotiationLatencyMs),
    boundaryAt: iso(row.boundaryAt),
    answeredAt: iso(row.answeredAt),
    refusedAt: iso(row.refusedAt),
    naiveResumeAt: iso(row.naiveResumeAt),
    dualNegotiationAt: iso(row.dualNegotiationAt),
    dualNegotiationCount: Number(row.dualNegotiationCount ?? 0),
    burnedTokenReuseAt: iso(row.burnedTokenReuseAt),
    dropCount: Number(row.dropCount ?? 0),
    deadlockCandidateSince: unended ? iso(row.deadlockStartedAt) : null,
    resumption: resumptionOfRow(row),
    updatedAt: toIsoMs(Number(row.updatedAt)),
    synthetic: Number(row.synthetic ?? 0) === 1,
    version: row.version ?? null,
    instance: row.instance ?? null,
  };
}

export function toChainLink(row: SessionRow, nowMs: number, thresholdMs: number, maxMs: number): TChainLink {
  return {
    server: row.server,
    token: row.token,
    state: oneOf(SESSION_STATES, row.state, 'sse_active'),
    flags: flagsOf(row, nowMs, thresholdMs, maxMs),
    openedAt: iso(row.openedAt),
    lastEventAt: toIsoMs(Number(row.lastEventAt)),
    refusedAt: iso(row.refusedAt),
    renegotiationLatencyMs: num(row.renegotiationLatencyMs),
  };
}
