import { readJsonBody } from '@/lib/http/read-json-body';
import { requireOperator } from '@/lib/auth/require-operator';
import { ZAddServerRequest } from '@/lib/contract/api/admin-servers';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { addServer, listServers } from '@/lib/store/servers/server-registry';

export const dynamic = 'force-dynamic';
const noStore = { 'cache-control': 'no-store' };

export const GET = handleRoute(async (request: Request) => {
  await requireOperator(request, 'admin');
  return Response.json({ servers: await listServers(getDb()) }, { headers: noStore });
});

export const POST = handleRoute(async (request: Request) => {
  await requireOperator(request, 'admin');
  const { name } = await readJsonBody(request, ZAddServerRequest);
  return Response.json(await addServer(getDb(), name), { status: 201, headers: noStore });
});
