// The HTTP routes of the simulated server (the WebSocket upgrade is in ./upgrade):
//   GET    /mcp   new session (optional `Mcp-Previous-Session: <burned token>`)
//   GET    /mcp   with `Mcp-Session-Id` (+ optional `Last-Event-ID`): resume
//   DELETE /mcp   with `Mcp-Session-Id`: close the session
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { SimServerOptions } from './options';
import { resumeSession } from './resume';
import type { Session, SessionTable } from './session-table';
import { offerUpgrade } from './upgrade';

const newToken = () => `s_${randomBytes(9).toString('base64url')}`;

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Last-Event-ID as a cursor; anything but a plain event number counts as none. */
function lastEventIdOf(req: IncomingMessage): number | null {
  const raw = header(req, 'last-event-id');
  return raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

export function createRoutes(
  table: SessionTable,
  options: Pick<SimServerOptions, 'name' | 'upgradeAfterMs' | 'onUpgradeWritten'> & { messageIntervalMs: number },
  isClosing: () => boolean,
) {
  function openSession(req: IncomingMessage, res: ServerResponse): void {
    const previous = header(req, 'mcp-previous-session');
    const token = newToken();
    const s = table.add(token);
    table.attach(s, req, res);
    const at = table.emit(s, 'session.opened', previous ? { previousToken: previous } : {});
    table.ledger.opened(options.name, token, at, previous ?? null);
    s.record = table.ledger.get(token)!;
    table.append(s, 'message', { hello: token });
    s.messageTimer = setInterval(() => {
      if (s.state === 'sse') table.append(s, 'message', { n: s.nextId });
    }, options.messageIntervalMs);
    s.upgradeTimer = setTimeout(() => offerUpgrade(table, s, options.onUpgradeWritten), options.upgradeAfterMs());
  }

  function closeSession(s: Session, res: ServerResponse): void {
    if (s.ws) {
      res.writeHead(409, { connection: 'close' }).end();
      return;
    }
    table.closed(s, 'client_close');
    table.endStream(s, { id: null, event: 'session-closed', data: '{}' });
    table.terminate(s);
    res.writeHead(204, { connection: 'close' }).end();
  }

  return function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://sim');
    const closing = isClosing();
    if (url.pathname !== '/mcp' || closing) {
      res.writeHead(closing ? 503 : 404, { connection: 'close' }).end();
      return;
    }
    const token = header(req, 'mcp-session-id');
    const s = token ? table.get(token) : undefined;
    if (req.method === 'GET') {
      if (!token) return openSession(req, res);
      if (!s) return void res.writeHead(404, { connection: 'close' }).end();
      return resumeSession(table, s, req, res, lastEventIdOf(req));
    }
    if (req.method === 'DELETE') {
      if (!s) return void res.writeHead(404, { connection: 'close' }).end();
      return closeSession(s, res);
    }
    res.writeHead(405, { connection: 'close' }).end();
  };
}
