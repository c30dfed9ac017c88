import { login } from '@/lib/auth/login';
import { readJsonBody } from '@/lib/http/read-json-body';
import { ZLoginRequest } from '@/lib/contract/api/operators';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';

export const dynamic = 'force-dynamic';

export const POST = handleRoute(async (request: Request) => {
  const { token } = await readJsonBody(request, ZLoginRequest);
  return login(getDb(), request, token);
});
