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
  trustProxy: boolean;
}

export async function startNextServer(o: NextServerOptions): Promise<Server> {
  const app = next({ dev: false, dir: o.dir, hostname: o.host, port: o.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const upgrade = app.getUpgradeHandler();
  const server = createServer((req, res) => {
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
  });
  server.on('upgrade', (req, socket, head) => {
    normalizeForwardedHeaders(req.headers, req.socket.remoteAddress, o.trustProxy);
    upgrade(req, socket, head).catch(() => socket.destroy());
  });
  server.keepAliveTimeout = o.keepAliveTimeoutMs;
  // Must outlast keepAliveTimeout, or Node can close a reused connection mid-request.
  server.headersTimeout = o.keepAliveTimeoutMs + 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  return server;
}
