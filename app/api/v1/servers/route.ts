import { requireOperator } from '@/lib/auth/require-operator';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { listServerVerdicts } from '@/lib/queries/server-verdicts';

export const dynamic = 'force-dynamic';

export const GET = handleRoute(async (request: Request) => {
  await requireOperator(request, 'viewer');
  return Response.json(await listServerVerdicts(getDb()), { headers: { 'cache-control': 'no-store' } });
});
