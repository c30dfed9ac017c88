// Pages need a login session: without one the server redirects to /login before rendering
// anything. This is the cheap structural check (cookie present, well formed, not expired);
// the signature is verified against the operator's row by every API call the page makes.
import { NextResponse, type NextRequest } from 'next/server';
import { SESSION_COOKIE, parseSession } from '@/lib/auth/session-cookie';
import { errorBody } from '@/lib/http/api-error';

/** Next decodes dynamic segments before a route runs and answers a bare 500 when it cannot. */
function undecodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  // Prometheus scrapes with a bearer token and cannot follow a login redirect: /metrics answers 401 itself.
  if (pathname === '/metrics') return NextResponse.next();
  if (pathname.startsWith('/api/')) {
    // The API answers auth itself; here only a path no route could decode becomes a JSON 400.
    if (!undecodablePath(pathname)) return NextResponse.next();
    return NextResponse.json(errorBody('invalid_path', 'the path has a malformed percent-escape (each % must start a UTF-8 sequence such as %C3%A9)'), {
      status: 400,
      headers: { 'cache-control': 'no-store' },
    });
  }
  const cookie = request.cookies.get(SESSION_COOKIE)?.value;
  const session = cookie ? parseSession(cookie) : null;
  if (session && session.expiresAt > Date.now()) return NextResponse.next();
  const login = new URL('/login', request.url);
  login.searchParams.set('next', `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  // Pages but the login page, Next's assets, app/icon.svg and the files in public/ (named one by one: a token in
  // a page path may contain a dot, so no "has an extension" rule). API paths only when they hold a percent-escape
  // (for the check above): the proxy would otherwise buffer every ingest body before the route could refuse an
  // oversized one.
  matcher: ['/((?!api/|metrics$|login|_next/|icon\\.svg|favicon\\.ico|robots\\.txt).*)', '/api/(.*%.*)'],
};
