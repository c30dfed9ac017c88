import { requireOperator } from '@/lib/auth/require-operator';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { computeStats } from '@/lib/queries/stats';
import { parseStatsQuery } from '@/lib/queries/stats-query';

export const dynamic = 'force-dynamic';

export const GET = handleRoute(async (request: Request) => {
  await requireOperator(request, 'viewer');
  const query = parseStatsQuery(new URL(request.url).searchParams, Date.now());
  return Response.json(await computeStats(getDb(), query), { headers: { 'cache-control': 'no-store' } });
});
