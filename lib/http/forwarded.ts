// Forwarded headers are believed only when the deployment says a proxy sets them
// (DOORWATCH_TRUST_PROXY=1). Otherwise any client could claim another Host for the CSRF Origin
// check, or a fresh address per request to slip past the login throttle. The HTTP server
// (scripts/launch/next-server.ts) applies this to every request before Next sees it, so route code
// can read X-Forwarded-For / -Host / -Proto as facts.
import type { IncomingHttpHeaders } from 'node:http';

const FORWARDED = ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * Untrusted: every forwarded header the client sent is dropped and X-Forwarded-For becomes the
 * socket's peer address. Trusted: the proxy's headers stay, and the peer is appended to
 * X-Forwarded-For when the proxy did not send one.
 */
export function normalizeForwardedHeaders(headers: IncomingHttpHeaders, peerAddress: string | undefined, trustProxy: boolean): void {
  if (!trustProxy) for (const name of FORWARDED) delete headers[name];
  if (!headers['x-forwarded-for'] && peerAddress) headers['x-forwarded-for'] = peerAddress;
}

/**
 * The client's address as the nearest hop saw it: the last X-Forwarded-For entry (the one our
 * own proxy appended; entries to its left are whatever the client claimed), else 'unknown'.
 */
export function clientAddress(request: Request): string {
  const hops = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return hops.at(-1) ?? 'unknown';
}
