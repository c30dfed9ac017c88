import { requireOperator } from '@/lib/auth/require-operator';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/api-error';
import { handleRoute } from '@/lib/http/handle-route';
import { listDeadLetters } from '@/lib/ingest/dead-letters';

export const dynamic = 'force-dynamic';

export const GET = handleRoute(async (request: Request) => {
  await requireOperator(request, 'viewer');
  const url = new URL(request.url);
  const limit = Number(url.searchParams.get('limit') ?? 100);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new ApiError(400, 'invalid_limit', 'limit must be an integer from 1 to 1000');
  const server = url.searchParams.get('server') ?? undefined;
  return Response.json({ deadLetters: await listDeadLetters(getDb().sql, { server, limit }) }, { headers: { 'cache-control': 'no-store' } });
});
