/**
 * The per-session summary Doorwatch derives from one token's timeline
 * (see lib/boundary/summarize.ts for how each field is computed).
 */
import { z } from 'zod';

export const SESSION_STATES = ['sse_active', 'upgrade_pending', 'websocket_bound', 'terminated'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** Alphabetical, which is also the order flags appear in a summary. */
export const SESSION_FLAGS = [
  'boundary',
  'burned_token_reuse',
  'deadlock',
  'dual_negotiation',
  'naive_resume',
  'refused',
  'renegotiated',
] as const;
export type SessionFlag = (typeof SESSION_FLAGS)[number];

export const BOUNDARY_OUTCOMES = ['refused', 'naive_resume', 'pending'] as const;
export type BoundaryOutcome = (typeof BOUNDARY_OUTCOMES)[number];

/** Summary timestamps are always UTC with millisecond precision. */
const IsoMs = z.iso.datetime({ precision: 3 });
const nullableIso = IsoMs.nullable();
const count = z.int().min(0);

export const ZDeadlock = z.object({
  startedAt: IsoMs,
  endedAt: nullableIso,
  durationMs: z.number(),
  ongoing: z.boolean(),
  /**
   * Present (true) only when the deadlock never reported its end and is older than
   * DOORWATCH_DEADLOCK_MAX_MS: no longer ongoing, `endedAt` null, `durationMs` that maximum.
   */
  endUnreported: z.literal(true).optional(),
});
export type Deadlock = z.infer<typeof ZDeadlock>;

/**
 * A deadlock as read at one moment (lib/boundary/deadlock-as-of.ts): its client still waits, its end was
 * reported, or no end was reported and it is older than DOORWATCH_DEADLOCK_MAX_MS.
 */
export const DEADLOCK_STATUSES = ['ongoing', 'ended', 'end_unreported'] as const;
export type DeadlockStatus = (typeof DEADLOCK_STATUSES)[number];

export const ZSessionSummary = z.object({
  server: z.string().nullable(),
  token: z.string(),
  state: z.enum(SESSION_STATES),
  flags: z.array(z.enum(SESSION_FLAGS)),
  boundaryOutcome: z.enum(BOUNDARY_OUTCOMES).nullable(),

  openedAt: nullableIso,
  lastEventAt: nullableIso,
  eventCount: count,

  refusalLatencyMs: z.number().nullable(),
  deadlock: ZDeadlock.nullable(),

  previousToken: z.string().nullable(),
  successorToken: z.string().nullable(),
  successorServer: z.string().nullable(),
  successorOpenedAt: nullableIso,
  renegotiationLatencyMs: z.number().nullable(),

  // Event-time anchors so ingest can keep per-minute rollups correct.
  boundaryAt: nullableIso,
  answeredAt: nullableIso,
  refusedAt: nullableIso,
  naiveResumeAt: nullableIso,
  dualNegotiationAt: nullableIso,
  dualNegotiationCount: count,
  burnedTokenReuseAt: nullableIso,
  dropCount: count,
  deadlockCandidateSince: nullableIso,
});

export type SessionSummary = z.infer<typeof ZSessionSummary>;
