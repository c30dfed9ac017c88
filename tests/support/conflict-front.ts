// A loopback HTTP front for the reference sim server that plays the third kind of
// server: it answers 409 to a reconnect that reuses a token without Last-Event-ID (the request
// that would start a second negotiation), and passes everything else through — SSE streams,
// DELETEs and WebSocket upgrades — to the server behind it. (scripts/sim/server.ts has no such mode;
// see docs/probes.md.)
import { createServer, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ConflictFront {
  url: string;
  /** Requests the front answered 409 itself. */
  conflicts: number;
  close(): Promise<void>;
}

export async function startConflictFront(backendPort: number): Promise<ConflictFront> {
  const sockets = new Set<Socket>();
  const front: ConflictFront = { url: '', conflicts: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.headers['mcp-session-id'] !== undefined && req.headers['last-event-id'] === undefined) {
      front.conflicts += 1;
      res.writeHead(409, { connection: 'close', 'content-type': 'application/json' }).end('{"error":"negotiation_pending"}');
      return;
    }
    const up = request({ host: '127.0.0.1', port: backendPort, path: req.url, method: req.method, headers: req.headers, agent: false });
    up.on('response', (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      res.flushHeaders();
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    // The client went away (a probe's reset): the server behind sees its connection go too.
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req, socket, head) => {
    const up = connect(backendPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) up.write(head);
      socket.pipe(up);
      up.pipe(socket);
    });
    sockets.add(up);
    up.on('close', () => {
      sockets.delete(up);
      socket.destroy();
    });
    socket.on('close', () => up.destroy());
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  front.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return front;
}
