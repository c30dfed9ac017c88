// Single sign-on, authorisation code with PKCE: `startSignIn` seals a fresh state, nonce and PKCE
// verifier into a ten-minute cookie and sends the browser to the provider; `finishSignIn` checks
// what comes back against that cookie, exchanges the code (openid-client verifies the ID token),
// maps the role claim and signs the person in with the same session cookie a token sign-in gives,
// on an operator row of their own (lib/store/sso-operators.ts). Every refusal is a SignInRefusal.
import type { Db } from '@/lib/db/client';
import { logger } from '@/lib/log/logger';
import { safeNext } from '@/lib/http/safe-next';
import { putSsoOperator } from '@/lib/store/sso-operators';
import { displayName, roleFor, ssoOperatorId } from './oidc-claims';
import { callbackUrl, oidcOptions, type OidcOptions } from './oidc-options';
import { authorizationRequest, exchangeCode } from './oidc-provider';
import { SignInRefusal, refusalAnswer } from './sign-in-refusal';
import { STATE_COOKIE, STATE_TTL_MS, clearStateCookieHeader, openState, sealState, stateCookieHeader } from './oidc-state-cookie';
import { readCookie, sessionCookieHeader, signSession } from './session-cookie';
import { generateOperatorToken, hashToken, safeEqual } from './tokens';

function configured(): OidcOptions {
  const o = oidcOptions();
  if (o === null) throw new SignInRefusal('oidc_not_configured');
  return o;
}

export async function startSignIn(request: Request, next: string | undefined, now = Date.now()): Promise<Response> {
  try {
    const o = configured();
    const auth = await authorizationRequest(o, callbackUrl(o, request));
    const sealed = sealState(o, {
      state: auth.state,
      nonce: auth.nonce,
      verifier: auth.verifier,
      next: safeNext(next),
      expiresAt: now + STATE_TTL_MS,
    });
    return new Response(null, {
      status: 303,
      headers: { location: auth.url, 'set-cookie': stateCookieHeader(request, sealed), 'cache-control': 'no-store' },
    });
  } catch (err) {
    if (err instanceof SignInRefusal) return refused(err, request);
    throw err;
  }
}

function refused(refusal: SignInRefusal, request: Request): Response {
  logger().warn({ code: refusal.code, detail: refusal.detail }, 'single sign-on refused');
  return refusalAnswer(refusal, { extraCookies: [clearStateCookieHeader(request)] });
}

/** The provider's answer, in the order a person can act on: its own refusal, a lost or foreign sign-in, then the code. */
function checkedAnswer(o: OidcOptions, request: Request, params: URLSearchParams, now: number) {
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw new SignInRefusal('oidc_provider_error', `${error}${description ? `: ${description}` : ''}`.slice(0, 300));
  }
  const state = openState(o, readCookie(request, STATE_COOKIE), now);
  if (state === null) throw new SignInRefusal('oidc_state_missing');
  const code = params.get('code');
  if (!code) throw new SignInRefusal('oidc_callback_invalid');
  if (!safeEqual(params.get('state') ?? '', state.state)) throw new SignInRefusal('oidc_state_mismatch');
  return state;
}

export async function finishSignIn(db: Db, request: Request, now = Date.now()): Promise<Response> {
  let o: OidcOptions;
  let claims: Awaited<ReturnType<typeof exchangeCode>>['claims'];
  let next: string;
  try {
    o = configured();
    const params = new URL(request.url).searchParams;
    const state = checkedAnswer(o, request, params, now);
    next = state.next;
    // The URL the provider redirected to, as registered: openid-client sends it again with the code.
    const current = new URL(callbackUrl(o, request));
    for (const [k, v] of params) current.searchParams.append(k, v);
    claims = (await exchangeCode(o, current, state)).claims;
  } catch (err) {
    if (err instanceof SignInRefusal) return refused(err, request);
    throw err;
  }
  const sub = claims.sub as string;
  const name = displayName(claims);
  const role = roleFor(claims, o.roleClaim, o.roleMap);
  if (role === null) {
    logger().info({ sub, name, claim: o.roleClaim }, 'single sign-on: no role for this person');
    return refused(new SignInRefusal('oidc_no_role', `${o.roleClaim} maps to no role`), request);
  }
  const operator = await putSsoOperator(db, {
    id: ssoOperatorId(o.issuer, sub),
    name,
    role,
    freshTokenHash: hashToken(generateOperatorToken()),
  });
  const expiresAt = now + o.sessionMs;
  const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  headers.append(
    'set-cookie',
    sessionCookieHeader(request, signSession(operator.id, operator.tokenHash, expiresAt), Math.floor(o.sessionMs / 1000)),
  );
  headers.append('set-cookie', clearStateCookieHeader(request));
  logger().info({ operator: operator.id, name, role }, 'single sign-on: signed in');
  return new Response(continuePage(next), { status: 200, headers });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Signed in: a page of this site opens the next page. A redirect would not do: the provider's redirect
 * here was a cross-site navigation, the browser counts the whole chain as cross-site, and the session
 * cookie (SameSite=Strict) would stay home on the first page load, which would then ask to sign in.
 */
function continuePage(next: string): string {
  const href = escapeHtml(next);
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Signed in — Doorwatch</title></head><body><p>Signed in. <a href="${href}">Continue to Doorwatch</a></p></body></html>`;
}
