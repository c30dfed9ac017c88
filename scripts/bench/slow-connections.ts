// Slow connections for the slow-clients benchmark: a third trickle an ingest request's headers (a line a
// second), a third trickle a declared 100,000-byte ingest body (a byte a second), a third sit idle on
// keep-alive after one answered GET. While held, a connection the server cuts (its timeout) is replaced,
// so the count stays at what was asked for, as an attacker would keep it.
import { connect, type Socket } from 'node:net';

type Kind = 'headers' | 'body' | 'idle';
const KINDS: readonly Kind[] = ['headers', 'body', 'idle'];

export interface SlowConnections {
  /** Connections open now. */
  open(): number;
  /** Connections opened in all (replacements included). */
  opened(): number;
  /** Idle ones the app has answered: the app, not just the kernel's accept queue, has taken them. */
  answered(): number;
  /** Stops replacing and destroys every one. */
  close(): void;
}

export function holdSlowConnections(url: string, server: string, count: number): SlowConnections {
  const { port } = new URL(url);
  const sockets = new Set<Socket>();
  let opened = 0;
  let answered = 0;
  let holding = true;
  const openOne = (kind: Kind) => {
    opened++;
    const socket = connect(Number(port), '127.0.0.1');
    sockets.add(socket);
    let trickle: ReturnType<typeof setInterval> | null = null;
    socket.on('error', () => undefined);
    let heard = false;
    socket.on('data', () => {
      if (kind === 'idle' && !heard) answered++;
      heard = true;
    });
    socket.on('close', () => {
      if (trickle) clearInterval(trickle);
      sockets.delete(socket);
      if (holding) openOne(kind);
    });
    socket.on('connect', () => {
      if (kind === 'headers') {
        socket.write(`POST /api/v1/ingest/${server} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
        trickle = setInterval(() => socket.write(`x-slow-${Date.now()}: 1\r\n`), 1_000);
      } else if (kind === 'body') {
        const ts = Math.floor(Date.now() / 1000);
        socket.write(
          `POST /api/v1/ingest/${server} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n` +
            `webhook-id: msg_slow_${ts}_${opened}\r\nwebhook-timestamp: ${ts}\r\nwebhook-signature: v1,AAAA\r\n\r\n{`,
        );
        trickle = setInterval(() => socket.write(' '), 1_000);
      } else socket.write('GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });
  };
  for (let i = 0; i < count; i++) openOne(KINDS[i % KINDS.length]);
  return {
    open: () => [...sockets].filter((s) => s.readyState === 'open').length,
    opened: () => opened,
    answered: () => answered,
    close() {
      holding = false;
      for (const s of sockets) s.destroy();
    },
  };
}
