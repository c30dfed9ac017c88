// GET /api/v1/servers — each server, when it was last seen, and its conformance verdict.
import { z } from 'zod';
import { PROBE_STEPS, PROBE_VERDICTS, STEP_FINDINGS } from '@/lib/contract/probe-result';
import { ZCount, ZIsoMs, ZResolvedRange, zInstantParam } from './common';
import { ZRejectionSummary, ZUnknownServerRejections } from './rejections';
import { ZResumptionCounts } from './resumption-counts';
import { ZVersionChange } from './versions';

export const SERVER_VERDICTS = ['refuses', 'naive', 'unknown', 'resumes_correctly', 'lossy_resumes', 'idle_resumes'] as const;
export type TServerVerdict = (typeof SERVER_VERDICTS)[number];

/** What the verdict rests on: the latest door probe, observed traffic, both, or nothing yet. */
export const VERDICT_EVIDENCE = ['probe', 'traffic', 'probe_and_traffic', 'none'] as const;
export type TVerdictEvidence = (typeof VERDICT_EVIDENCE)[number];

/** The server's latest door probe (docs/probes.md), as the verdict uses it. */
export const ZServerProbeSummary = z.object({
  runId: z.string(),
  startedAt: ZIsoMs,
  verdict: z.enum(PROBE_VERDICTS),
  failedSteps: z.array(z.object({ step: z.enum(PROBE_STEPS), finding: z.enum(STEP_FINDINGS) })),
});
export type TServerProbeSummary = z.infer<typeof ZServerProbeSummary>;

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
   * For a server never seen at the boundary (e.g. no upgrade extension), what its SSE resumes showed:
   * idle_resumes: a resume answered 200 with nothing although the store held events;
   * lossy_resumes: a resume replayed fewer events than the store held after the cursor;
   * resumes_correctly: resumes were checked (their reports said what the store held) and all were complete;
   * unknown: nothing answered at the boundary and no checked resume either.
   */
  verdict: z.enum(SERVER_VERDICTS),
  /** The verdict with its evidence, for a person: "refuses — probed 2 min ago", "resumes naively — probe at 10:42, and 3 sessions observed". */
  verdictText: z.string(),
  evidence: z.enum(VERDICT_EVIDENCE),
  /** When the server's behaviour changed with a version its reporters named (also at the end of verdictText); null if none did. */
  versionChange: ZVersionChange.nullable(),
  /** The latest door probe; null if the server was never probed. */
  probe: ZServerProbeSummary.nullable(),
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
  /** Resumption health summed over the server's sessions (docs/contract.md, resumption health). */
  resumption: ZResumptionCounts,
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
