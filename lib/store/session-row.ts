// The stored form of a session summary (one row of "Session", epoch-ms times, 0/1 flag
// columns) and its conversions. The row keeps only clock-independent facts: an unended
// deadlock is stored as its start, and readers decide "ongoing" with their own clock.
import type { SessionFlag, SessionSummary } from '@/lib/contract/summary';
import type { ResumptionHealth } from '@/lib/contract/resumption';
import { timestampMs } from '@/lib/contract/timestamp';
import type { SessionAnchors } from '@/lib/metrics/rollup-contributions';
import type { ColumnSpec } from '@/lib/db/sql';

export interface SessionRow {
  server: string;
  token: string;
  state: string;
  flags: string;
  boundaryOutcome: string | null;
  openedAt: number | null;
  firstEventAt: number;
  lastEventAt: number;
  eventCount: number;
  boundaryAt: number | null;
  answeredAt: number | null;
  refusedAt: number | null;
  refusalLatencyMs: number | null;
  naiveResumeAt: number | null;
  dualNegotiationAt: number | null;
  dualNegotiationCount: number;
  burnedTokenReuseAt: number | null;
  dropCount: number;
  deadlockStartedAt: number | null;
  deadlockEndedAt: number | null;
  deadlockDurationMs: number | null;
  previousToken: string | null;
  successorServer: string | null;
  successorToken: string | null;
  successorOpenedAt: number | null;
  renegotiationLatencyMs: number | null;
  fBoundary: number;
  fRefused: number;
  fNaiveResume: number;
  fDualNegotiation: number;
  fRenegotiated: number;
  fBurnedTokenReuse: number;
  checkedResumes: number;
  lossyResumes: number;
  idleResumes: number;
  rejectedResumes: number;
  abandonedAt: number | null;
  updatedAt: number;
  /** 1 = a door probe opened this session (lib/store/synthetic-tokens.ts): no rollups, a badge. */
  synthetic: number;
  /** The version (build) and instance that served the session: the first batch naming one wins (lib/ingest/store-batch.ts). */
  version: string | null;
  instance: string | null;
  /**
   * The session's fold and the last event folded (lib/boundary/fold-state.ts), so the next batch in
   * timeline order carries it on instead of re-reading the timeline; null on rows written before it.
   */
  foldState: string | null;
}

const SESSION_TEXT_COLUMNS = new Set<keyof SessionRow>([
  'server',
  'token',
  'state',
  'flags',
  'boundaryOutcome',
  'previousToken',
  'successorServer',
  'successorToken',
  'version',
  'instance',
  'foldState',
]);
const SESSION_BIGINT_COLUMNS = new Set<keyof SessionRow>([
  'openedAt',
  'firstEventAt',
  'lastEventAt',
  'boundaryAt',
  'answeredAt',
  'refusedAt',
  'naiveResumeAt',
  'dualNegotiationAt',
  'burnedTokenReuseAt',
  'deadlockStartedAt',
  'deadlockEndedAt',
  'deadlockDurationMs',
  'successorOpenedAt',
  'updatedAt',
  'abandonedAt',
]);

/** Column order used by the multi-row upsert. */
export const SESSION_ROW_COLUMNS: readonly (keyof SessionRow)[] = [
  'server',
  'token',
  'state',
  'flags',
  'boundaryOutcome',
  'openedAt',
  'firstEventAt',
  'lastEventAt',
  'eventCount',
  'boundaryAt',
  'answeredAt',
  'refusedAt',
  'refusalLatencyMs',
  'naiveResumeAt',
  'dualNegotiationAt',
  'dualNegotiationCount',
  'burnedTokenReuseAt',
  'dropCount',
  'deadlockStartedAt',
  'deadlockEndedAt',
  'deadlockDurationMs',
  'previousToken',
  'successorServer',
  'successorToken',
  'successorOpenedAt',
  'renegotiationLatencyMs',
  'fBoundary',
  'fRefused',
  'fNaiveResume',
  'fDualNegotiation',
  'fRenegotiated',
  'fBurnedTokenReuse',
  'checkedResumes',
  'lossyResumes',
  'idleResumes',
  'rejectedResumes',
  'abandonedAt',
  'updatedAt',
  'synthetic',
  'version',
  'instance',
  'foldState',
];

/** Column types for bulk writes (lib/db/sql.ts insertMany); a test checks them against the migrated table. */
export const SESSION_COLUMN_SPECS: readonly ColumnSpec[] = SESSION_ROW_COLUMNS.map((name) => ({
  name,
  type: SESSION_TEXT_COLUMNS.has(name) ? 'text' : SESSION_BIGINT_COLUMNS.has(name) ? 'bigint' : 'int',
}));

/** Flag → its stored 0/1 column (indexed filters). `deadlock` depends on the reader's clock: no column. */
export const SESSION_FLAG_COLUMN = {
  boundary: 'fBoundary',
  refused: 'fRefused',
  naive_resume: 'fNaiveResume',
  dual_negotiation: 'fDualNegotiation',
  renegotiated: 'fRenegotiated',
  burned_token_reuse: 'fBurnedTokenReuse',
} as const satisfies Record<Exclude<SessionFlag, 'deadlock'>, keyof SessionRow>;

const ms = (iso: string | null): number | null => (iso === null ? null : timestampMs(iso));
const bit = (on: boolean): number => (on ? 1 : 0);

export function toSessionRow(
  server: string,
  s: SessionSummary,
  health: ResumptionHealth,
  firstEventAt: number,
  updatedAt: number,
  foldState: string | null = null,
): SessionRow {
  const bitOf = (f: keyof typeof SESSION_FLAG_COLUMN) => bit((s.flags as string[]).includes(f));
  const ended = s.deadlock !== null && s.deadlock.endedAt !== null;
  const deadlockStartedAt = ended ? ms(s.deadlock!.startedAt) : ms(s.deadlockCandidateSince ?? s.deadlock?.startedAt ?? null);
  return {
    server,
    token: s.token,
    state: s.state,
    // "deadlock" is stored only once ended: an unended one is a reader's-clock decision. The
    // resumption flags share the text (readers pick each list out of it).
    flags: [...(s.flags as string[]).filter((f) => f !== 'deadlock' || ended), ...health.flags].join(' '),
    boundaryOutcome: s.boundaryOutcome,
    openedAt: ms(s.openedAt),
    firstEventAt,
    lastEventAt: ms(s.lastEventAt) ?? firstEventAt,
    eventCount: s.eventCount,
    boundaryAt: ms(s.boundaryAt),
    answeredAt: ms(s.answeredAt),
    refusedAt: ms(s.refusedAt),
    refusalLatencyMs: s.refusalLatencyMs,
    naiveResumeAt: ms(s.naiveResumeAt),
    dualNegotiationAt: ms(s.dualNegotiationAt),
    dualNegotiationCount: s.dualNegotiationCount,
    burnedTokenReuseAt: ms(s.burnedTokenReuseAt),
    dropCount: s.dropCount,
    deadlockStartedAt,
    deadlockEndedAt: ended ? ms(s.deadlock!.endedAt) : null,
    deadlockDurationMs: ended ? s.deadlock!.durationMs : null,
    previousToken: s.previousToken,
    successorServer: s.successorServer,
    successorToken: s.successorToken,
    successorOpenedAt: ms(s.successorOpenedAt),
    renegotiationLatencyMs: s.renegotiationLatencyMs,
    [SESSION_FLAG_COLUMN.boundary]: bitOf('boundary'),
    [SESSION_FLAG_COLUMN.refused]: bitOf('refused'),
    [SESSION_FLAG_COLUMN.naive_resume]: bitOf('naive_resume'),
    [SESSION_FLAG_COLUMN.dual_negotiation]: bitOf('dual_negotiation'),
    [SESSION_FLAG_COLUMN.renegotiated]: bitOf('renegotiated'),
    [SESSION_FLAG_COLUMN.burned_token_reuse]: bitOf('burned_token_reuse'),
    checkedResumes: health.checkedResumes,
    lossyResumes: health.lossyResumes,
    idleResumes: health.idleResumes,
    rejectedResumes: health.rejectedResumes,
    abandonedAt: ms(health.abandonedAt),
    updatedAt,
    synthetic: 0,
    version: null,
    instance: null,
    foldState,
  };
}

export function sessionAnchors(row: SessionRow): SessionAnchors {
  return {
    firstEventAt: row.firstEventAt,
    boundaryAt: row.boundaryAt,
    boundaryOutcome: row.boundaryOutcome,
    answeredAt: row.answeredAt,
    refusedAt: row.refusedAt,
    refusalLatencyMs: row.refusalLatencyMs,
    dualNegotiationAt: row.dualNegotiationAt,
    burnedTokenReuseAt: row.burnedTokenReuseAt,
    deadlockStartedAt: row.deadlockStartedAt,
    deadlockEndedAt: row.deadlockEndedAt,
    successorOpenedAt: row.successorOpenedAt,
    renegotiationLatencyMs: row.renegotiationLatencyMs,
    lastEventAt: row.lastEventAt,
    checkedResumes: row.checkedResumes,
    lossyResumes: row.lossyResumes,
    idleResumes: row.idleResumes,
    rejectedResumes: row.rejectedResumes,
    flags: row.flags,
  };
}
