// GET /api/v1/stats — totals and a time series over a range.
import { z } from 'zod';
import { ZCount, ZIsoMs, ZResolvedRange } from './common';

export const ZLatencySummary = z.object({
  count: ZCount,
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
  max: z.number().nullable(),
});

export const ZDeadlockTotals = z.object({
  /** Ended deadlocks that started in range (rollups) + ongoing ones that started in range. */
  total: ZCount,
  /** Unended naive resumes whose idle time reached the threshold by the reader's clock. */
  ongoing: ZCount,
  /** Ended durations + (now − start) for ongoing ones. */
  idleMs: z.number().min(0),
});

export const ZRenegotiationTotals = z.object({
  count: ZCount,
  /** renegotiations / drops; null when there were no drops. */
  rate: z.number().nullable(),
  latencyMs: z.object({ p50: z.number().nullable(), p95: z.number().nullable(), max: z.number().nullable() }),
  under200ms: ZCount,
});

/** The counters available per bucket and in total. */
export const ZStatsCounts = z.object({
  events: ZCount,
  sessions: ZCount,
  drops: ZCount,
  boundary: ZCount,
  refused: ZCount,
  naiveResumes: ZCount,
  dualNegotiations: ZCount,
  burnedTokenReuses: ZCount,
  deadlocks: ZCount,
  renegotiations: ZCount,
});
export type TStatsCounts = z.infer<typeof ZStatsCounts>;

/** Exact nearest-rank latency percentiles over one series bucket; p50/p95/max are null when count is 0. */
export const ZBucketLatency = z.object({
  count: ZCount,
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  max: z.number().nullable(),
});
export type TBucketLatency = z.infer<typeof ZBucketLatency>;

export const ZStatsBucket = ZStatsCounts.extend({
  /** Bucket start (inclusive); the bucket ends at t + bucketMs. */
  t: ZIsoMs,
  /** Refusal latency over sessions whose refusal (`refusedAt`) falls in this bucket. */
  refusalLatencyMs: ZBucketLatency,
  /** Renegotiation latency over successors opened (`successorOpenedAt`) in this bucket. */
  renegotiationLatencyMs: ZBucketLatency,
});
export type TStatsBucket = z.infer<typeof ZStatsBucket>;

export const ZHistogramBucket = z.object({
  /** Inclusive lower bound in ms. */
  fromMs: z.number(),
  /** Exclusive upper bound in ms; null for the open-ended last bucket. */
  toMs: z.number().nullable(),
  count: ZCount,
});
export type THistogramBucket = z.infer<typeof ZHistogramBucket>;

export const ZStatsResponse = z.object({
  range: ZResolvedRange,
  /** The server filter, or null for all servers. */
  server: z.string().nullable(),
  /** The reader's clock used for ongoing deadlocks. */
  now: ZIsoMs,
  deadlockThresholdMs: z.int(),
  bucketMs: z.int().positive(),

  events: ZCount,
  sessions: ZCount,
  drops: ZCount,
  boundary: ZCount,
  refused: ZCount,
  naiveResumes: ZCount,
  dualNegotiations: ZCount,
  burnedTokenReuses: ZCount,
  deadlocks: ZDeadlockTotals,
  /** EXACT nearest-rank percentiles of refusal latency over sessions refused in range. */
  refusalLatencyMs: ZLatencySummary,
  renegotiations: ZRenegotiationTotals,
  refusalLatencyHistogram: z.array(ZHistogramBucket),
  series: z.array(ZStatsBucket),
});
export type TStatsResponse = z.infer<typeof ZStatsResponse>;
