// GET /api/health — liveness, database reachability and whether writes are refused, for load balancers and the dashboard.
import { z } from 'zod';

export const ZHealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    provider: z.string(),
    reachable: z.boolean(),
    latencyMs: z.number().nullable(),
    error: z.string().optional(),
    /**
     * False when the database is unreachable, or reachable but refusing writes (its disk is full: see
     * writeError); true again after the next ingest batch stored.
     */
    writable: z.boolean(),
    writeError: z
      .object({
        code: z.enum(['database_full']),
        /** The first refusal since the last batch stored. */
        since: z.string(),
        message: z.string(),
      })
      .optional(),
  }),
  uptimeSeconds: z.number(),
});
