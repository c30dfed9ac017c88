// Runs before every page and API route (Next 16's middleware):
// 1. a path whose percent-escapes do not decode is answered 400 JSON `invalid_path` (Next
//    would fail decoding the dynamic segment and answer a plain-text 500 before any handler);
// 2. security headers on every answer, pages with a per-request CSP nonce (lib/http/security-headers.ts);
// 3. pages need a login session: without one the server redirects to /login before rendering
//    anything. This is the cheap structural check (cookie present, well formed, not expired);
//    the signature is verified against the operator's row by every API call the page makes.
import { NextResponse, type NextRequest } from 'next/server';
import { SESSION_COOKIE, parseSession } from '@/lib/auth/session-cookie';
import { errorBody } from '@/lib/http/api-error';
import { API_CSP, NONCE_HEADER, applySecurityHeaders, newNonce, pageCsp, undecodableSegment } from '@/lib/http/security-headers';

const isApi = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');
const isPublicPage = (pathname: string) =>
  pathname === '/login' || pathname.startsWith('/login/') || pathname === '/icon.svg' || pathname === '/favicon.ico';

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  // Prometheus and MCP clients call with a bearer token and cannot follow a login redirect: /metrics and /mcp answer 401 themselves.
  if (pathname === '/metrics' || pathname === '/mcp') {
    const res = NextResponse.next();
    applySecurityHeaders(res.headers, API_CSP);
    return res;
  }
  const bad = undecodableSegment(pathname);
  if (bad !== null) {
    const res = NextResponse.json(errorBody('invalid_path', `the path segment ${JSON.stringify(bad)} is not valid percent-encoded UTF-8`), {
      status: 400,
      headers: { 'cache-control': 'no-store' },
    });
    applySecurityHeaders(res.headers, API_CSP);
    return res;
  }
  if (isApi(pathname)) {
    const res = NextResponse.next();
    applySecurityHeaders(res.headers, API_CSP);
    return res;
  }
  const nonce = newNonce();
  const csp = pageCsp(nonce);
  let res: NextResponse;
  const cookie = request.cookies.get(SESSION_COOKIE)?.value;
  const session = cookie ? parseSession(cookie) : null;
  if (isPublicPage(pathname) || (session && session.expiresAt > Date.now())) {
    // Next takes the nonce for its own scripts from the request's CSP header.
    const headers = new Headers(request.headers);
    headers.set(NONCE_HEADER, nonce);
    headers.set('content-security-policy', csp);
    res = NextResponse.next({ request: { headers } });
  } else {
    const login = new URL('/login', request.url);
    login.searchParams.set('next', `${pathname}${search}`);
    res = NextResponse.redirect(login);
  }
  applySecurityHeaders(res.headers, csp);
  return res;
}

export const config = {
  // Pages (the login page too: it needs its CSP nonce), not Next's hashed static assets, app/icon.svg
  // or the files in public/ (named one by one: a token in a page path may contain a dot). API paths
  // only when they hold a percent-escape: a proxy match makes Next buffer the request body before
  // the handler, which ingest must not pay (it answers 413 before an oversized body is sent). API
  // security headers come from next.config.js.
  matcher: ['/((?!api/|_next/static|_next/image|icon\\.svg|favicon\\.ico|robots\\.txt).*)', '/api/(.*%.*)'],
};
