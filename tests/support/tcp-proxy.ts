// A loopback TCP proxy whose link can be cut and restored: a database outage on demand
// (every open connection is reset, new ones are refused until up()) without stopping the
// database the other tests share; or a silent cut (a network partition as the client sees it).
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Resets every open connection and drops new ones until up(). */
  down(): void;
  /**
   * A silent cut: the target's side of every open connection is closed (as a database whose
   * keepalives found the peer gone ends its session), while the client's side hears nothing more:
   * no data, no FIN, no RST. New connections are accepted and held the same way until up().
   */
  silence(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: 'up' | 'down' | 'silent' = 'up';
  const open = new Set<Socket>();
  const links = new Set<{ client: Socket; upstream: Socket }>();
  const track = (s: Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => s.destroy());
  };
  // Read and drop, so the client's writes never block and it hears nothing back.
  const mute = (client: Socket) => void client.on('data', () => undefined);
  const server = createServer((client) => {
    track(client);
    if (mode === 'down') return void client.resetAndDestroy();
    if (mode === 'silent') return mute(client);
    const upstream = createConnection({ host: targetHost, port: targetPort });
    track(upstream);
    const link = { client, upstream };
    links.add(link);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => {
      links.delete(link);
      upstream.destroy();
    });
    upstream.on('close', () => {
      links.delete(link);
      if (mode !== 'silent') client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    down() {
      mode = 'down';
      for (const s of open) s.resetAndDestroy();
    },
    silence() {
      mode = 'silent';
      for (const { client, upstream } of links) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        mute(client);
        upstream.destroy();
      }
      links.clear();
    },
    up() {
      mode = 'up';
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
