// The production HTTP server: Next's request handler behind a plain node:http server, so that
// forwarded headers are normalised from the real socket before Next builds its request
// (lib/http/forwarded.ts; `next start` keeps whatever X-Forwarded-* the client sent).
import { createServer, type Server } from 'node:http';
import next from 'next';
import { normalizeForwardedHeaders } from '@/lib/http/forwarded';
import { componentLogger } from '@/lib/log/logger';

export interface NextServerOptions {
  dir: string;
  host: string;
  port: number;
  keepAliveTimeoutMs: number;
  /** A request's headers must arrive within this (slowloris); else 408 and the connection closed. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this; else 408 and the connection closed. */
  requestTimeoutMs: number;
  trustProxy: boolean;
}

/** How often Node looks for requests past their timeouts (its default, 30 s, would let a slow client stay up to 30 s longer). */
const TIMEOUT_CHECK_MS = 1_000;

export async function startNextServer(o: NextServerOptions): Promise<Server> {
  const app = next({ dev: false, dir: o.dir, hostname: o.host, port: o.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const upgrade = app.getUpgradeHandler();
  const server = createServer(
    {
      // Node (>= 18) counts headersTimeout from a request's first byte, and a connection idle between
      // requests is governed by keepAliveTimeout alone, so the two are independent (the old advice to
      // keep headersTimeout above keepAliveTimeout predates that). Node requires headers <= request.
      headersTimeout: Math.min(o.headersTimeoutMs, o.requestTimeoutMs),
      requestTimeout: o.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    },
    (req, res) => {
      normalizeForwardedHeaders(req.headers, req.socket.remoteAddress, o.trustProxy);
      handle(req, res).catch((err: unknown) => {
        componentLogger('http').error(
          { method: req.method, path: req.url?.split('?')[0], err: err instanceof Error ? err.message : String(err) },
          'request failed',
        );
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json', 'cache-control': 'no-store' });
          res.end(
            JSON.stringify({ error: { code: 'internal_error', message: 'Doorwatch failed to handle this request; see the server log.' } }),
          );
        } else res.destroy();
      });
    },
  );
  server.keepAliveTimeout = o.keepAliveTimeoutMs;
  server.on('upgrade', (req, socket, head) => {
    normalizeForwardedHeaders(req.headers, req.socket.remoteAddress, o.trustProxy);
    upgrade(req, socket, head).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  return server;
}
