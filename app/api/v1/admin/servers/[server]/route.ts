import { requireOperator } from '@/lib/auth/require-operator';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { removeServer } from '@/lib/store/servers/server-registry';

export const dynamic = 'force-dynamic';

export const DELETE = handleRoute(async (request: Request, { params }: { params: Promise<{ server: string }> }) => {
  await requireOperator(request, 'admin');
  await removeServer(getDb(), (await params).server);
  return new Response(null, { status: 204 });
});
