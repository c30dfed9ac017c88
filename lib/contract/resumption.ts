/**
 * Resumption health of one session: how its server answered SSE resumes, for servers with or
 * without the WebSocket upgrade (lib/boundary/resumption-health.ts computes it). Kept apart from
 * the boundary summary so the boundary contract and its verdicts stay exactly as they were.
 */
import { z } from 'zod';

/** Alphabetical, which is also the order they appear in. */
export const RESUMPTION_FLAGS = [
  'abandoned',
  'idle_resume',
  'lossy_resume',
  'resume_after_end',
  'resume_conflict',
  'unknown_cursor',
] as const;
export type ResumptionFlag = (typeof RESUMPTION_FLAGS)[number];

/** `resume.rejected` statuses with a flag of their own (the answers of the official MCP SDK). */
export const REJECTION_FLAGS: Readonly<Record<number, ResumptionFlag>> = {
  400: 'unknown_cursor',
  404: 'resume_after_end',
  409: 'resume_conflict',
};

const count = z.int().min(0);

export const ZResumptionHealth = z.object({
  flags: z.array(z.enum(RESUMPTION_FLAGS)),
  /** `resume.accepted` events that said how many events the store held after the cursor (`available`). */
  checkedResumes: count,
  /** …of which replayed fewer than the store held. */
  lossyResumes: count,
  /** …of which replayed nothing although the store held events: a 200 with an idle stream. */
  idleResumes: count,
  /** Non-terminal `resume.rejected` events, any status. */
  rejectedResumes: count,
  /** `at` of the `session.abandoned` event (UTC, ms), or null. */
  abandonedAt: z.iso.datetime({ precision: 3 }).nullable(),
});
export type ResumptionHealth = z.infer<typeof ZResumptionHealth>;
