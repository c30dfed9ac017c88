// POST /api/auth/logout: the cookie is cleared for everyone (login.ts). A single sign-on session
// also ends on the server: its operator row gets a new session key, so the cookie stops working
// even where a copy of it survives, on every browser of that person (a session is not stored one
// by one). When the provider has an end-session endpoint, the answer names it, so the page can
// sign the person out there too.
import type { Db } from '@/lib/db/client';
import type { z } from 'zod';
import type { ZSignOutResponse } from '@/lib/contract/api/operators';
import { replaceSessionKey } from '@/lib/store/sso-operators';
import { logout } from './login';
import { SSO_OPERATOR_PREFIX } from './oidc-claims';
import { callbackUrl, oidcOptions } from './oidc-options';
import { endSessionUrl } from './oidc-provider';
import { findActiveOperatorById } from './operators';
import { SESSION_COOKIE, clearSessionCookieHeader, parseSession, readCookie, verifySessionMac } from './session-cookie';
import { generateOperatorToken, hashToken } from './tokens';

export async function signOut(db: Db, request: Request): Promise<Response> {
  const cleared = logout(request);
  const cookie = readCookie(request, SESSION_COOKIE);
  const session = cookie === null ? null : parseSession(cookie);
  if (session === null || !session.operatorId.startsWith(SSO_OPERATOR_PREFIX)) return cleared;
  const row = await findActiveOperatorById(db, session.operatorId);
  if (row === null || !verifySessionMac(session, row.tokenHash)) return cleared;
  await replaceSessionKey(db, row.id, hashToken(generateOperatorToken()));
  const o = oidcOptions();
  const url = o === null ? null : await endSessionUrl(o, new URL('/login', callbackUrl(o, request)).href);
  if (url === null) return cleared;
  const body: z.infer<typeof ZSignOutResponse> = { endSessionUrl: url };
  return Response.json(body, { headers: { 'set-cookie': clearSessionCookieHeader(request), 'cache-control': 'no-store' } });
}
