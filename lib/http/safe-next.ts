// Where to go after signing in: only a path on this site, never an absolute or protocol-relative URL
// from a query string (an open redirect), nor the sign-in page itself. The login form and the single
// sign-on callback both use it.

export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.startsWith('/login')) return '/';
  return next;
}
