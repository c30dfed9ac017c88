// GET /api/v1/servers/{server}/sessions/{token} — one session, its timeline and renegotiation chain.
import { z } from 'zod';
import { SESSION_FLAGS, SESSION_STATES } from '@/lib/contract/summary';
import { ZIsoMs } from './common';
import { ZSessionView } from './sessions';

export const ZTimelineEvent = z.object({
  id: z.string(),
  type: z.string(),
  at: ZIsoMs,
  seq: z.int().nullable(),
  data: z.record(z.string(), z.unknown()),
  receivedAt: ZIsoMs,
});
export type TTimelineEvent = z.infer<typeof ZTimelineEvent>;

/** One hop of a renegotiation chain (links across servers via previousToken/successorToken). */
export const ZChainLink = z.object({
  server: z.string(),
  token: z.string(),
  state: z.enum(SESSION_STATES),
  flags: z.array(z.enum(SESSION_FLAGS)),
  openedAt: ZIsoMs.nullable(),
  lastEventAt: ZIsoMs,
  refusedAt: ZIsoMs.nullable(),
  renegotiationLatencyMs: z.number().nullable(),
});
export type TChainLink = z.infer<typeof ZChainLink>;

export const ZSessionDetailResponse = z.object({
  session: ZSessionView,
  /** Ordered by at, seq, id (the same order summaries are derived from). */
  timeline: z.array(ZTimelineEvent),
  chain: z.object({
    /** Oldest first, ending with the immediate predecessor. */
    predecessors: z.array(ZChainLink),
    /** Immediate successor first. */
    successors: z.array(ZChainLink),
    /** True when the walk stopped at the hop limit or on a cycle. */
    truncated: z.boolean(),
  }),
  now: ZIsoMs,
  /**
   * DOORWATCH_DEADLOCK_MAX_MS the answer was read with (0: none): a page that counts an ongoing
   * deadlock on from `now` stops at it, where the next read would say "end unreported".
   */
  deadlockMaxMs: z.int().min(0),
});
export type TSessionDetailResponse = z.infer<typeof ZSessionDetailResponse>;
