import { requireOperator } from '@/lib/auth/require-operator';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { listDeadLetters, parseDeadLetterQuery } from '@/lib/queries/dead-letter-list';

export const dynamic = 'force-dynamic';

export const GET = handleRoute(async (request: Request) => {
  await requireOperator(request, 'viewer');
  const query = parseDeadLetterQuery(new URL(request.url).searchParams, Date.now());
  return Response.json(await listDeadLetters(getDb().sql, query), { headers: { 'cache-control': 'no-store' } });
});
