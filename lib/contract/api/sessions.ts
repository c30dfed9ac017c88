// GET /api/v1/sessions — a page of session summaries; /api/v1/sessions/export streams the whole filtered set.
import { z } from 'zod';
import { ZSessionSummary } from '@/lib/contract/summary';
import { ZResumptionHealth } from '@/lib/contract/resumption';
import { ZIsoMs } from './common';

/**
 * One session as the API shows it: the SessionSummary fields, with `flags`,
 * `deadlock` and `deadlock.ongoing` decided with the READER's clock.
 */
export const ZSessionView = ZSessionSummary.extend({
  server: z.string(),
  firstEventAt: ZIsoMs,
  updatedAt: ZIsoMs.meta({ description: 'when Doorwatch last recomputed this summary (ingest clock)' }),
  /** How the server answered SSE resumes (lossy, idle, rejected, abandoned); see docs/contract.md. */
  resumption: ZResumptionHealth,
});
export type TSessionView = z.infer<typeof ZSessionView>;

export const SESSION_SORTS = ['-lastEventAt', 'lastEventAt', '-firstEventAt', 'firstEventAt'] as const;
export type TSessionSort = (typeof SESSION_SORTS)[number];

export const ZSessionListResponse = z.object({
  sessions: z.array(ZSessionView),
  /** Opaque; pass as `cursor=` for the next page. Null on the last page. */
  nextCursor: z.string().nullable(),
  limit: z.int().positive(),
  sort: z.enum(SESSION_SORTS),
  now: ZIsoMs,
});
export type TSessionListResponse = z.infer<typeof ZSessionListResponse>;

/** Columns of the CSV export, in order (flags are space-separated, the deadlock is flattened). */
export const SESSION_CSV_COLUMNS = [
  'server', 'token', 'state', 'flags', 'boundaryOutcome', 'openedAt', 'firstEventAt', 'lastEventAt', 'eventCount',
  'refusalLatencyMs', 'deadlockStartedAt', 'deadlockEndedAt', 'deadlockDurationMs', 'deadlockOngoing',
  'previousToken', 'successorToken', 'successorServer', 'successorOpenedAt', 'renegotiationLatencyMs',
  'boundaryAt', 'answeredAt', 'refusedAt', 'naiveResumeAt', 'dualNegotiationAt', 'dualNegotiationCount',
  'burnedTokenReuseAt', 'dropCount', 'deadlockCandidateSince', 'updatedAt',
] as const;

/** The JSON export is a plain array of session views. */
export const ZSessionExportJson = z.array(ZSessionView);
