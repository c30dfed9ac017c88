import { authenticate } from '@/lib/auth/require-operator';
import type { TAuthSessionResponse } from '@/lib/contract/api/operators';
import { handleRoute } from '@/lib/http/handle-route';

export const dynamic = 'force-dynamic';

export const GET = handleRoute(async (request: Request) => {
  const op = await authenticate(request);
  const body: TAuthSessionResponse = {
    operator: { id: op.id, name: op.name, role: op.role },
    expiresAt: op.expiresAt === null ? null : new Date(op.expiresAt).toISOString(),
  };
  return Response.json(body, { headers: { 'cache-control': 'no-store' } });
});
