// Browser login/logout: exchange an operator token for a signed session cookie.
import type { Db } from '@/lib/db/client';
import { ApiError } from '@/lib/http/api-error';
import type { TAuthSessionResponse } from '@/lib/contract/api/operators';
import { clientAddress } from '@/lib/http/forwarded';
import { assertSameOrigin } from './csrf';
import { throttled } from './credential-throttle';
import { findActiveOperatorByToken, isOperatorRole } from './operators';
import { SESSION_TTL_MS, clearSessionCookieHeader, sessionCookieHeader, signSession } from './session-cookie';

/** Login is itself CSRF-checked (a forged login would put a victim into the attacker's account). */
export async function login(db: Db, request: Request, token: string, nowMs = Date.now()): Promise<Response> {
  if (request.headers.get('origin') !== null) assertSameOrigin(request);
  // Guessing is throttled per presented token and per client address (429 + Retry-After).
  const record = await throttled(clientAddress(request), token, async () => {
    const found = await findActiveOperatorByToken(db, token);
    if (!found || !isOperatorRole(found.role)) throw new ApiError(401, 'unauthorized', 'unknown or revoked operator token');
    return { ...found, role: found.role };
  });
  const expiresAt = nowMs + SESSION_TTL_MS;
  const body: TAuthSessionResponse = {
    operator: { id: record.id, name: record.name, role: record.role },
    expiresAt: new Date(expiresAt).toISOString(),
  };
  return Response.json(body, {
    headers: {
      'set-cookie': sessionCookieHeader(request, signSession(record.id, record.tokenHash, expiresAt), Math.floor(SESSION_TTL_MS / 1000)),
      'cache-control': 'no-store',
    },
  });
}

export function logout(request: Request): Response {
  if (request.headers.get('origin') !== null) assertSameOrigin(request);
  return new Response(null, { status: 204, headers: { 'set-cookie': clearSessionCookieHeader(request), 'cache-control': 'no-store' } });
}
