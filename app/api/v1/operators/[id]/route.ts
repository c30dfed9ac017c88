import { revokeOperator } from '@/lib/auth/operator-store';
import { requireOperator } from '@/lib/auth/require-operator';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Revokes the operator token (it and its login sessions stop working at once). */
export const DELETE = handleRoute(async (request: Request, context: Context) => {
  await requireOperator(request, 'admin');
  const { id } = await context.params;
  return Response.json({ operator: await revokeOperator(getDb(), id) }, { headers: { 'cache-control': 'no-store' } });
});
