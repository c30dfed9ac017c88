// GET /api/v1/stats — totals and a time series over a range.
import { z } from 'zod';
import { ZCount, ZIsoMs, ZResolvedRange, zInstantParam } from './common';
import { zText } from './route-contract';
import { ZServerVersion } from '@/lib/contract/ingest-envelope';
import { ZResumptionCounts } from './resumption-counts';

export const ZLatencySummary = z.object({
  count: ZCount,
  /** The exact smallest latency (ms), also when the percentiles are approximate; null when count is 0. */
  min: z.number().nullable(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
  /** The exact largest latency (ms), also when the percentiles are approximate; null when count is 0. */
  max: z.number().nullable(),
});

export const ZDeadlockTotals = z.object({
  /** Ended deadlocks that started in range (rollups) + unended ones (ongoing or end unreported) that started in range. */
  total: ZCount,
  /**
   * Unended naive resumes that started in range and whose idle time reached the threshold by the reader's
   * clock, and not DOORWATCH_DEADLOCK_MAX_MS (when set) or more.
   */
  ongoing: ZCount,
  /**
   * Deadlocks that started in range and never reported their end, older than DOORWATCH_DEADLOCK_MAX_MS:
   * counted in `total`, not in `ongoing` or `stuckNow` (a client's wait cannot outlast its server's idle
   * timeout). Always 0 without a maximum.
   */
  unreported: ZCount,
  /**
   * Sessions stuck now: unended deadlocks (at least the threshold old by the reader's clock, younger
   * than the maximum when one is set) that began before the range's end, however long before its
   * start. `ongoing` counts only those that began in range, so a client stuck for longer than a live
   * range dropped out of it while still waiting.
   */
  stuckNow: ZCount,
  /** When the longest-waiting of the `stuckNow` sessions began to wait, null when none is stuck. */
  stuckSince: ZIsoMs.nullable(),
  /** Ended durations + (now − start) for ongoing ones + the maximum for each one whose end went unreported. */
  idleMs: z.number().min(0),
  /**
   * When the next unended naive resume that started in range reaches the threshold (its start +
   * deadlockThresholdMs), or the longest-waiting client stuck now reaches DOORWATCH_DEADLOCK_MAX_MS
   * (when set), whichever comes first; null if neither will: `ongoing` and `stuckNow` change then by
   * the clock alone, with no event to announce it, so a reader that wants to stay current asks again then.
   */
  nextOngoingAt: ZIsoMs.nullable(),
});

export const ZRenegotiationTotals = z.object({
  count: ZCount,
  /** renegotiations / drops; null when there were no drops. */
  rate: z.number().nullable(),
  latencyMs: ZLatencySummary.pick({ min: true, p50: true, p95: true, max: true }),
  /** Renegotiations that took at most 200 ms (≤, as Prometheus's `le`; the name is kept for compatibility). */
  under200ms: ZCount,
});

/** What happened at the upgrade boundary: entries and how they were answered. */
export const ZBoundaryCounts = z.object({
  boundary: ZCount,
  refused: ZCount,
  naiveResumes: ZCount,
  dualNegotiations: ZCount,
  burnedTokenReuses: ZCount,
});

/** Totals that are plain counts both per bucket and over the whole range. */
const ZActivityCounts = z.object({
  events: ZCount,
  sessions: ZCount,
  drops: ZCount,
  ...ZBoundaryCounts.shape,
});

/** The counters available per bucket and in total. */
export const ZStatsCounts = ZActivityCounts.extend({
  deadlocks: ZCount,
  renegotiations: ZCount,
});
export type TStatsCounts = z.infer<typeof ZStatsCounts>;

/** Nearest-rank latency percentiles over one series bucket (exact or from histograms: see `percentiles`; min and max always exact); min/p50/p95/max are null when count is 0. */
export const ZBucketLatency = ZLatencySummary.omit({ p99: true });
export type TBucketLatency = z.infer<typeof ZBucketLatency>;

export const ZStatsBucket = ZStatsCounts.extend({
  /** Bucket start (inclusive); the bucket ends at t + bucketMs. */
  t: ZIsoMs,
  /** Refusal latency over sessions whose refusal (`refusedAt`) falls in this bucket. */
  refusalLatencyMs: ZBucketLatency,
  /** Renegotiation latency over successors opened (`successorOpenedAt`) in this bucket. */
  renegotiationLatencyMs: ZBucketLatency,
});

export const ZHistogramBucket = z.object({
  /** Exclusive lower bound in ms (the first bucket also takes 0 and below). */
  fromMs: z.number(),
  /** Inclusive upper bound in ms (latency ≤ toMs, as Prometheus's `le`); null for the open-ended last bucket. */
  toMs: z.number().nullable(),
  count: ZCount,
});
export type THistogramBucket = z.infer<typeof ZHistogramBucket>;

/** One bucket of one server's series (split=server): the counters the overview's count charts draw. */
export const ZServerSplitBucket = z.object({
  t: ZIsoMs,
  boundary: ZCount,
  refused: ZCount,
  naiveResumes: ZCount,
  deadlocks: ZCount,
  renegotiations: ZCount,
});

/** One server's share of the range (split=server), from the same GROUP BY as the totals. */
export const ZServerSplit = ZStatsCounts.extend({
  server: z.string(),
  /** Deadlocks ongoing now that started in range (included in `deadlocks`). */
  ongoingDeadlocks: ZCount,
  /** The server's sessions stuck now, however long before the range they began to wait (as `deadlocks.stuckNow`). */
  stuckNow: ZCount,
  /** When the longest-waiting of its `stuckNow` sessions began to wait (as `deadlocks.stuckSince`), null when none is. */
  stuckSince: ZIsoMs.nullable(),
  /** Start of the newest deadlock (ended or ongoing) that started in range. */
  lastDeadlockAt: ZIsoMs.nullable(),
  series: z.array(ZServerSplitBucket),
});
export type TServerSplit = z.infer<typeof ZServerSplit>;

/**
 * One version's share of the range (split=version or version=), read from the Session rows at the
 * rollups' own anchors, so the versions add up to the totals (sessions that named no version are
 * the entry with version null). Events and drops are counted per event, not per session, and are
 * not split. The refusal latency is exact.
 */
export const ZVersionSplit = z.object({
  version: z.string().nullable(),
  sessions: ZCount,
  ...ZBoundaryCounts.shape,
  /** Ended and ongoing deadlocks that started in range. */
  deadlocks: ZCount,
  ongoingDeadlocks: ZCount,
  renegotiations: ZCount,
  refusalLatencyMs: ZLatencySummary,
  /** Per bucket, the same counters as a server's split series. */
  series: z.array(ZServerSplitBucket),
});
export type TVersionSplit = z.infer<typeof ZVersionSplit>;

/**
 * How a latency's percentiles were computed: `exact` (nearest rank over the sessions' own values,
 * relativeError 0) or `approximate` (nearest rank over the summed log-scale histogram cells of the
 * range; every figure within `relativeError` of the exact one). See lib/queries/stats.ts for the rule.
 */
export const ZPercentileMethod = z.object({
  method: z.enum(['exact', 'approximate']),
  relativeError: z.number().min(0),
});
export type TPercentileMethod = z.infer<typeof ZPercentileMethod>;

export const ZStatsResponse = z.object({
  range: ZResolvedRange,
  /** The server filter, or null for all servers. */
  server: z.string().nullable(),
  /** The reader's clock used for ongoing deadlocks. */
  now: ZIsoMs,
  deadlockThresholdMs: z.int(),
  bucketMs: z.int().positive(),

  ...ZActivityCounts.shape,
  deadlocks: ZDeadlockTotals,
  /** Nearest-rank percentiles of refusal latency over sessions refused in range (exact or approximate: `percentiles.refusal`). */
  refusalLatencyMs: ZLatencySummary,
  /** Which percentiles are exact and which come from the histograms, for the totals and the series alike. */
  percentiles: z.object({ refusal: ZPercentileMethod, renegotiation: ZPercentileMethod }),
  renegotiations: ZRenegotiationTotals,
  refusalLatencyHistogram: z.array(ZHistogramBucket),
  /** Payloads refused at ingest in range (events that failed the contract, bodies that were not a batch). */
  deadLetters: ZCount,
  /** SSE resumption health over the (non-probe) sessions whose last event falls in range, from the rollups. */
  resumption: ZResumptionCounts,
  /** Ingest requests refused in range (401 by reason, 413, 415, 429, 503); per server and reason on /api/v1/servers. */
  rejectedRequests: ZCount,
  series: z.array(ZStatsBucket),
  /** With split=server: one entry per server with activity in range, most boundary entries first. */
  byServer: z.array(ZServerSplit).optional(),
  /** With split=version or version=: one entry per version with activity in range, most boundary entries first. */
  byVersion: z.array(ZVersionSplit).optional(),
});
export type TStatsResponse = z.infer<typeof ZStatsResponse>;

/** GET /api/v1/stats parameters (from/to/bucket are resolved by lib/queries/time-range and buckets). */
export const ZStatsQuery = z.object({
  from: zInstantParam(
    'Start (inclusive): RFC 3339, epoch ms, or relative as in Grafana (now-15m, now-7d, units s m h d w M y; rounded in UTC: now/d, now-1d/d). 1970 … 9999. Default now-15m.',
  ),
  to: zInstantParam('End (exclusive), same forms. Default now.'),
  server: z
    .array(zText(128))
    .max(1, 'stats takes at most one server= (omit it for all servers)')
    .default([])
    .meta({ description: 'One server; omit for all' }),
  bucket: z.string().max(16).optional().meta({ description: 'Series bucket: 1m, 5m, 1h, 1d … (default chosen from the range)' }),
  split: z.enum(['server', 'version']).optional().meta({
    description:
      "server: add byServer, the totals and series of each server (same rollups, one GROUP BY); version: add byVersion, each version's counts and series from the Session rows (they add up to the totals)",
  }),
  version: z
    .array(ZServerVersion)
    .max(10, 'stats takes at most 10 version= (omit it for every version)')
    .default([])
    .meta({ description: 'Versions (builds) to keep in byVersion; implies split=version. The range totals stay those of every version.' }),
});
export type TStatsQuery = z.output<typeof ZStatsQuery>;
