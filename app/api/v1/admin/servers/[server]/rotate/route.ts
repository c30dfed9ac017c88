import { readJsonBody } from '@/lib/http/read-json-body';
import { requireOperator } from '@/lib/auth/require-operator';
import { ZRotateSecretRequest } from '@/lib/contract/api/admin-servers';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { rotateSecret } from '@/lib/store/servers/server-registry';

export const dynamic = 'force-dynamic';

export const POST = handleRoute(async (request: Request, { params }: { params: Promise<{ server: string }> }) => {
  await requireOperator(request, 'admin');
  const { graceSeconds } = await readJsonBody(request, ZRotateSecretRequest);
  const result = await rotateSecret(getDb(), (await params).server, graceSeconds);
  return Response.json(result, { headers: { 'cache-control': 'no-store' } });
});
