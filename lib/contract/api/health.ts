// GET /api/health — liveness and database reachability, for load balancers.
import { z } from 'zod';

export const ZHealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    provider: z.string(),
    reachable: z.boolean(),
    latencyMs: z.number().nullable(),
    error: z.string().optional(),
  }),
  uptimeSeconds: z.number(),
});
