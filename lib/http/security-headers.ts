// The security headers every page and API response carries, set by proxy.ts. Pages get a
// Content-Security-Policy with a per-request nonce and no 'unsafe-inline' for scripts: Next
// reads the nonce from the request's CSP header and puts it on its own scripts; the theme boot
// script in app/layout.tsx takes it from the `x-nonce` request header. API answers are JSON and
// never need to run or embed anything.

export const NONCE_HEADER = 'x-nonce';

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

export function pageCsp(nonce: string, dev = process.env.NODE_ENV === 'development'): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': chunks loaded by a nonce-bearing script run; nothing inline without the nonce.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // React and Recharts set style attributes: inline styles cannot run script.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers besides the CSP, the same on every response. */
export const COMMON_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

export function applySecurityHeaders(headers: Headers, csp: string): void {
  headers.set('content-security-policy', csp);
  for (const [name, value] of Object.entries(COMMON_SECURITY_HEADERS)) headers.set(name, value);
}

/** The path's segments all decode (decodeURIComponent), or the first one that does not. */
export function undecodableSegment(pathname: string): string | null {
  for (const segment of pathname.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return null;
}
