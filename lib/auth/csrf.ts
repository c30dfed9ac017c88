// CSRF protection for cookie-authenticated mutations: a strict Origin check.
//
// Why Origin and not a double-submit token: the session cookie is already SameSite=Strict, so
// a cross-site request does not carry it in any current browser; the Origin check is the
// second, independent layer for older browsers and same-site-but-cross-origin attackers
// (another app on a sibling subdomain). Every browser sends Origin on POST/PUT/PATCH/DELETE
// fetches and form posts, so it needs no cooperation from the dashboard code (no token to
// fetch, store and echo), and it cannot be stolen by XSS-free script on another origin.
// Requests authenticated with a Bearer token are not subject to CSRF (no ambient credential).
//
// Rule: the request's Origin must equal this instance's origin — derived from the Host (or
// X-Forwarded-Host/-Proto when DOORWATCH_TRUST_PROXY=1), or listed in DOORWATCH_PUBLIC_ORIGIN (comma-separated).
// With no Origin header, `Sec-Fetch-Site: same-origin` is accepted; with neither, the request is
// refused (a browser that sends neither is not one we can protect).
import { ApiError } from '@/lib/http/api-error';
import { settings } from '@/lib/config/settings';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

function expectedOrigins(request: Request): Set<string> {
  const out = new Set<string>();
  const url = new URL(request.url);
  // Forwarded headers only when a proxy is declared to set them (lib/http/forwarded.ts).
  const trust = settings().DOORWATCH_TRUST_PROXY;
  const forwarded = (name: string) => (trust ? request.headers.get(name)?.split(',')[0]?.trim() : undefined);
  const host = forwarded('x-forwarded-host') || request.headers.get('host') || url.host;
  const proto = forwarded('x-forwarded-proto') || url.protocol.replace(':', '');
  out.add(`${proto}://${host}`.toLowerCase());
  for (const o of settings().DOORWATCH_PUBLIC_ORIGIN) out.add(o); // normalised: lower case, no trailing slash
  return out;
}

/** Throws 403 `csrf_rejected` unless the request demonstrably comes from this instance's own pages. */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get('origin');
  if (origin && origin !== 'null') {
    if (expectedOrigins(request).has(origin.toLowerCase().replace(/\/+$/, ''))) return;
    throw new ApiError(403, 'csrf_rejected', `cross-origin request refused (Origin ${origin} is not this instance)`);
  }
  if (request.headers.get('sec-fetch-site') === 'same-origin') return;
  throw new ApiError(403, 'csrf_rejected', 'a cookie-authenticated change needs a same-origin Origin header (or use a Bearer token)');
}
