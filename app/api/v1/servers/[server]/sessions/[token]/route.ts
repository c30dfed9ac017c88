import { requireOperator } from '@/lib/auth/require-operator';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { deadlockThresholdMs } from '@/lib/config/settings';
import { getSessionDetail } from '@/lib/queries/session-detail';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ server: string; token: string }> };

export const GET = handleRoute(async (request: Request, context: Context) => {
  await requireOperator(request, 'viewer');
  const { server, token } = await context.params;
  const detail = await getSessionDetail(getDb(), server, token, Date.now(), deadlockThresholdMs());
  return Response.json(detail, { headers: { 'cache-control': 'no-store' } });
});
