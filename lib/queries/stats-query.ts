// Parameters of GET /api/v1/stats → a StatsQuery.
import { ApiError } from '@/lib/http/api-error';
import { deadlockThresholdMs } from '@/lib/config/settings';
import type { StatsQuery } from './stats';
import { parseTimeRange, resolveBucketMs } from './time-range';

export function parseStatsQuery(params: URLSearchParams, nowMs: number): StatsQuery {
  const range = parseTimeRange(params.get('from'), params.get('to'), nowMs);
  const bucketMs = resolveBucketMs(params.get('bucket'), range.toMs - range.fromMs);
  const servers = params.getAll('server').filter((s) => s.trim() !== '');
  if (servers.length > 1) throw new ApiError(400, 'invalid_server', 'stats takes at most one server= (omit it for all servers)');
  const server = servers[0]?.trim() ?? null;
  if (server !== null && server.length > 128) throw new ApiError(400, 'invalid_server', 'server must be at most 128 characters');
  return { range, bucketMs, server, nowMs, thresholdMs: deadlockThresholdMs() };
}
