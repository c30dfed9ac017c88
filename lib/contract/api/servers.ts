// GET /api/v1/servers — each server, when it was last seen, and its conformance verdict.
import { z } from 'zod';
import { ZCount, ZIsoMs, ZResolvedRange, zInstantParam } from './common';
import { ZRejectionSummary, ZUnknownServerRejections } from './rejections';

export const SERVER_VERDICTS = ['refuses', 'naive', 'unknown'] as const;
export type TServerVerdict = (typeof SERVER_VERDICTS)[number];

export const ZServerView = z.object({
  name: z.string(),
  /** When the server was registered; null if it only appears in stored data. */
  registeredAt: ZIsoMs.nullable(),
  /** Event time of its latest event; null if none yet. */
  lastSeenAt: ZIsoMs.nullable(),
  events: ZCount,
  sessions: ZCount,
  /**
   * refuses: boundary resumes were seen and every answered one was refused;
   * naive: any naive resume, dual negotiation or burned-token reuse;
   * unknown: no answered boundary resume yet.
   */
  verdict: z.enum(SERVER_VERDICTS),
  /**
   * What this server's reporters said they lost before sending (summed over reporter instances,
   * each reporting cumulative counts); null if no reporter ever sent its status. Non-zero means
   * the stored timelines, and so the counts and verdict, may be incomplete.
   */
  reporterLoss: z
    .object({
      instances: ZCount,
      dropped: ZCount,
      failed: ZCount,
      lastReportAt: ZIsoMs,
    })
    .nullable(),
  /** Ingest requests from this server refused in range, by reason, and the latest one (with clock skew for timestamp refusals). */
  rejections: ZRejectionSummary,
  counts: z.object({
    boundary: ZCount,
    refused: ZCount,
    naiveResumes: ZCount,
    dualNegotiations: ZCount,
    burnedTokenReuses: ZCount,
  }),
});
export type TServerView = z.infer<typeof ZServerView>;

export const ZServerListResponse = z.object({
  /** The range the rejection counts cover. */
  range: ZResolvedRange,
  servers: z.array(ZServerView),
  /** Requests naming no registered server (one bucket for all names), with the last names seen. */
  unknownServers: ZUnknownServerRejections,
});

/** GET /api/v1/servers parameters: the range of the rejection counts (default now-15m). */
export const ZServerListQuery = z.object({
  from: zInstantParam('Start of the rejection counts (inclusive), same forms as /api/v1/stats. Default now-15m.'),
  to: zInstantParam('End (exclusive). Default now.'),
});
export type TServerListResponse = z.infer<typeof ZServerListResponse>;
