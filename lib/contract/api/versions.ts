// GET /api/v1/servers/{server}/versions and …/versions/compare: the versions (builds) a server's
// reporters named, what their sessions did, and two versions side by side.
import { z } from 'zod';
import { ZServerVersion } from '@/lib/contract/ingest-envelope';
import { ZCount, ZIsoMs } from './common';

export const ZVersionView = z.object({
  version: z.string(),
  /** Event time of the earliest and latest event a batch naming this version carried (or of a session it served). */
  firstSeenAt: ZIsoMs,
  lastSeenAt: ZIsoMs,
  sessions: ZCount.meta({ description: 'sessions this version served (door-probe sessions left out)' }),
  naiveResumes: ZCount,
  dualNegotiations: ZCount,
  burnedTokenReuses: ZCount,
  refusals: ZCount.meta({ description: 'sessions whose boundary resume was refused' }),
  deadlocks: ZCount.meta({ description: 'ended deadlocks (an ongoing one counts once it ends)' }),
  conflicts: ZCount.meta({
    description: 'batches naming this version for a session another version had already claimed (the first one keeps it)',
  }),
  firstNaiveResumeAt: ZIsoMs.nullable().meta({ description: 'the earliest naive resume among its sessions' }),
});
export type TVersionView = z.infer<typeof ZVersionView>;

/** When the server's behaviour changed with a version, and what changed (lib/queries/version-change.ts). */
export const ZVersionChange = z.object({
  kind: z.enum(['became_naive', 'stopped_naive']),
  version: z.string(),
  /** The version before it (by first report) that behaved the other way. */
  previousVersion: z.string(),
  versionFirstSeenAt: ZIsoMs,
  firstNaiveResumeAt: ZIsoMs.nullable(),
  text: z.string().meta({ example: 'naive since v2.3.1: first naive resume 14:02, 3 minutes after v2.3.1 first reported' }),
});
export type TVersionChange = z.infer<typeof ZVersionChange>;

export const ZServerVersionsResponse = z.object({
  server: z.string(),
  /** Oldest first report first. */
  versions: z.array(ZVersionView),
  change: ZVersionChange.nullable(),
});
export type TServerVersionsResponse = z.infer<typeof ZServerVersionsResponse>;

export const ZVersionCompareQuery = z.object({
  a: ZServerVersion.meta({ description: 'the first version (e.g. the one before a deploy)' }),
  b: ZServerVersion.meta({ description: 'the second version' }),
});

const ZLatency = z.object({ count: ZCount, p50: z.number().nullable(), p95: z.number().nullable() });

export const ZVersionFigures = z.object({
  version: z.string(),
  sessions: ZCount,
  /** Sessions by boundary outcome: refused, naive_resume, pending, and none (never reached the boundary). */
  outcomes: z.object({ refused: ZCount, naive_resume: ZCount, pending: ZCount, none: ZCount }),
  refusalLatencyMs: ZLatency,
  renegotiation: z.object({
    refused: ZCount,
    renegotiated: ZCount,
    /** renegotiated ÷ refused; null when nothing was refused. */
    rate: z.number().nullable(),
    latencyMs: ZLatency,
  }),
});
export type TVersionFigures = z.infer<typeof ZVersionFigures>;

export const ZVersionCompareResponse = z.object({ server: z.string(), a: ZVersionFigures, b: ZVersionFigures });
export type TVersionCompareResponse = z.infer<typeof ZVersionCompareResponse>;
