import { requireOperator } from '@/lib/auth/require-operator';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { getDeadLetter } from '@/lib/queries/dead-letter-list';

export const dynamic = 'force-dynamic';

export const GET = handleRoute(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  await requireOperator(request, 'viewer');
  const { id } = await params;
  return Response.json({ deadLetter: await getDeadLetter(getDb().sql, id) }, { headers: { 'cache-control': 'no-store' } });
});
