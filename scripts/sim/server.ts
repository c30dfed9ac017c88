// Reference MCP-style server for the simulator: SSE streams with numbered events and
// Last-Event-ID resumption, an in-band upgrade (`upgrade-accepted` SSE event, then an HTTP
// Upgrade to WebSocket with `Sec-WebSocket-Protocol: mcp.v1`), and an idle timeout. Every
// transition is reported to Doorwatch through the reporter SDK with real timestamps.
//
// Two modes (see ./server/resume):
// - `refusing`: resume requests go through Doorwatch's own `decideResume`; at the upgrade
//   boundary the stream is closed with a terminal `session-superseded` event and the token burned.
// - `naive`: the two failure variants of the design note. A resume with Last-Event-ID at/after
//   the pending upgrade replays "everything after it" (nothing) and leaves an idle stream; a
//   reconnect without Last-Event-ID on the same token gets a fresh stream and a SECOND
//   `upgrade-accepted`, whose handshake the WebSocket layer then rejects with 409.
//
// All on one port: the routes of ./server/routes (GET/DELETE /mcp) and the upgrade of
// ./server/upgrade (GET /mcp/ws?session=<token>&negotiation=<eventId>, subprotocol mcp.v1),
// both over the session table of ./server/session-table.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerMode, SimServerOptions } from './server/options';
import { createRoutes } from './server/routes';
import { SessionTable } from './server/session-table';
import { createUpgradeHandler } from './server/upgrade';

export type { ServerMode, SimServerOptions } from './server/options';

export interface SimServer {
  name: string;
  mode: ServerMode;
  url: string;
  port: number;
  /** Sessions not yet terminated. */
  liveSessions(): number;
  close(): Promise<void>;
}

export async function startSimServer(options: SimServerOptions): Promise<SimServer> {
  const { name, mode, reporter, ledger } = options;
  const table = new SessionTable({ mode, reporter, ledger, idleTimeoutMs: options.idleTimeoutMs ?? 300_000 });
  const upgrade = createUpgradeHandler(table);
  let closing = false;
  const routes = createRoutes(table, { ...options, messageIntervalMs: options.messageIntervalMs ?? 500 }, () => closing);

  const server = createServer(routes);
  server.on('upgrade', upgrade.onUpgrade);
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    name,
    mode,
    port,
    url: `http://127.0.0.1:${port}`,
    liveSessions: () => table.size,
    async close() {
      closing = true;
      for (const s of table.all()) {
        if (s.state !== 'terminated') {
          table.closed(s, 'shutdown');
          table.endStream(s);
          s.ws?.close(1001);
          table.terminate(s);
        }
      }
      upgrade.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
