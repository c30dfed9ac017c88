// A loopback stand-in for an MCP server that door probes are pointed at: it counts the requests
// each path receives and answers every one with 404 after `delayMs` (so a probe run takes a
// while and fails fast at each step). Tests count probe runs per target from it, the way the
// server being probed would see them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingDoor {
  /** The probe URL of one target: each target its own path. */
  url(path: string): string;
  /** Requests received so far, per path. */
  count(path: string): number;
  close(): Promise<void>;
}

export async function startCountingDoor(delayMs: number): Promise<CountingDoor> {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://door').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    req.resume();
    const timer = setTimeout(() => {
      res.writeHead(404, { 'content-type': 'text/plain', connection: 'close' });
      res.end('no MCP here');
    }, delayMs);
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => `${base}${path}`,
    count: (path) => counts.get(path) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
