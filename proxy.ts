// Pages need a login session: without one the server redirects to /login before rendering
// anything. This is the cheap structural check (cookie present, well formed, not expired);
// the signature is verified against the operator's row by every API call the page makes.
import { NextResponse, type NextRequest } from 'next/server';
import { SESSION_COOKIE, parseSession } from '@/lib/auth/session-cookie';

export function proxy(request: NextRequest) {
  const cookie = request.cookies.get(SESSION_COOKIE)?.value;
  const session = cookie ? parseSession(cookie) : null;
  if (session && session.expiresAt > Date.now()) return NextResponse.next();
  const login = new URL('/login', request.url);
  const { pathname, search } = request.nextUrl;
  login.searchParams.set('next', `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  // Everything but the API (it answers 401 itself), the login page, Next's assets, app/icon.svg and the
  // files in public/ (named one by one: a token in a page path may contain a dot, so no "has an extension" rule).
  matcher: ['/((?!api/|login|_next/|icon\\.svg|favicon\\.ico|robots\\.txt).*)'],
};
