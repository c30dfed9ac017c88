// The checked parameters of GET /api/v1/stats (ZStatsQuery) → a StatsQuery.
import type { TStatsQuery } from '@/lib/contract/api/stats';
import { deadlockMaxMs, deadlockThresholdMs } from '@/lib/config/settings';
import type { StatsQuery } from './stats';
import { parseTimeRange, resolveBucketMs } from './time-range';

export function parseStatsQuery(q: TStatsQuery, nowMs: number): StatsQuery {
  const range = parseTimeRange(q.from ?? null, q.to ?? null, nowMs);
  const bucketMs = resolveBucketMs(q.bucket ?? null, range.toMs - range.fromMs);
  const splitByVersion = q.split === 'version' || q.version.length > 0 ? { versions: q.version } : undefined;
  return {
    range,
    bucketMs,
    server: q.server[0] ?? null,
    splitByServer: q.split === 'server',
    ...(splitByVersion ? { splitByVersion } : {}),
    nowMs,
    thresholdMs: deadlockThresholdMs(),
    maxMs: deadlockMaxMs(),
  };
}
