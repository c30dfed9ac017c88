// Resumption health summed over sessions: per server (GET /api/v1/servers) and per range (GET /api/v1/stats).
import { z } from 'zod';
import { ZCount } from './common';

export const ZResumptionCounts = z.object({
  /** Resumes whose report said how many events the store held after the cursor. */
  checkedResumes: ZCount,
  /** …that replayed fewer than the store held. */
  lossyResumes: ZCount,
  /** …that replayed nothing although the store held events (200 with an idle stream). */
  idleResumes: ZCount,
  /** Non-terminal rejections of any status. */
  rejectedResumes: ZCount,
  /** Sessions with a 409 (second resumer of a connected stream). */
  conflictSessions: ZCount,
  /** Sessions resumed after they ended (404). */
  endedSessionResumes: ZCount,
  /** Sessions with a resume from a cursor the store did not know (400). */
  unknownCursorSessions: ZCount,
  /** Sessions ended by the server's idle timeout after the client left without DELETE. */
  abandonedSessions: ZCount,
});
export type TResumptionCounts = z.infer<typeof ZResumptionCounts>;
