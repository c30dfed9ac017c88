import { createOperator, listOperators } from '@/lib/auth/operator-store';
import { readJsonBody } from '@/lib/http/read-json-body';
import { requireOperator } from '@/lib/auth/require-operator';
import { ZCreateOperatorRequest } from '@/lib/contract/api/operators';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';

export const dynamic = 'force-dynamic';

export const GET = handleRoute(async (request: Request) => {
  await requireOperator(request, 'admin');
  return Response.json({ operators: await listOperators(getDb()) }, { headers: { 'cache-control': 'no-store' } });
});

export const POST = handleRoute(async (request: Request) => {
  await requireOperator(request, 'admin');
  const { name, role } = await readJsonBody(request, ZCreateOperatorRequest);
  return Response.json(await createOperator(getDb(), name, role), { status: 201, headers: { 'cache-control': 'no-store' } });
});
