// GET /api/live and /api/ready — liveness and readiness for Kubernetes and load balancers (public); not the door probes of ./probes.ts.
import { z } from 'zod';

export const ZLiveResponse = z.object({
  status: z.literal('live'),
  uptimeSeconds: z.number(),
});

export const ZReadyResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  /** Why not ready (null when ready): the database is unreachable, or migrations are pending or failed. */
  reason: z.enum(['database_unreachable', 'migrations_pending']).nullable(),
  message: z.string().nullable(),
  database: z.object({ provider: z.string(), reachable: z.boolean() }),
  migrations: z.object({ expected: z.int(), applied: z.int(), pending: z.array(z.string()) }).nullable(),
});
export type TReadyResponse = z.infer<typeof ZReadyResponse>;
