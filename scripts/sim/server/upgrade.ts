// The in-band upgrade: the server offers it with an `upgrade-accepted` SSE event, and the
// client completes it with an HTTP Upgrade to WebSocket on `mcp.v1`. Only the negotiation the
// session first accepted may complete; any other handshake for the token is refused with 409.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Session, SessionTable } from './session-table';
import { SUBPROTOCOL } from '@/lib/wire/subprotocol';

/** Writes an `upgrade-accepted` event naming its own negotiation; returns that event's id. */
export function writeUpgradeAccepted(table: SessionTable, s: Session): number {
  const id = s.nextId;
  table.append(s, 'upgrade-accepted', { url: `/mcp/ws?session=${s.token}&negotiation=${id}`, protocol: SUBPROTOCOL });
  return id;
}

/** The timer's offer: the session stops its messages and waits for the handshake. */
export function offerUpgrade(table: SessionTable, s: Session, onUpgradeWritten?: (token: string, eventId: number) => void): void {
  s.upgradeTimer = null;
  if (s.state !== 'sse') return;
  s.state = 'pending';
  if (s.messageTimer) clearInterval(s.messageTimer);
  s.messageTimer = null;
  const connected = s.stream !== null;
  const id = writeUpgradeAccepted(table, s);
  s.negotiations = [id];
  table.emit(s, 'upgrade.accepted', { eventId: id });
  if (connected) onUpgradeWritten?.(s.token, id);
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** The `upgrade` listener of the HTTP server, and the WebSocket server behind it. */
export function createUpgradeHandler(table: SessionTable) {
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  });

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {});
    const url = new URL(req.url ?? '/', 'http://sim');
    const s = table.get(url.searchParams.get('session') ?? '');
    const negotiation = Number(url.searchParams.get('negotiation'));
    if (url.pathname !== '/mcp/ws' || !s || s.state === 'terminated') return refuseUpgrade(socket, 404, 'Not Found');
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    if (!protocols.includes(SUBPROTOCOL)) return refuseUpgrade(socket, 400, 'Bad Request');
    if (s.state !== 'pending' || negotiation !== s.negotiations[0]) {
      // Another negotiation holds (or held) this token: the WebSocket layer refuses the second.
      refuseUpgrade(socket, 409, 'Conflict');
      s.record.dual = true;
      table.emit(s, 'upgrade.rejected', { status: 409, negotiation });
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (s.state !== 'pending') {
        ws.terminate();
        return;
      }
      // Sec-WebSocket-Accept is written: the session is WebSocket-bound.
      s.state = 'websocket';
      s.ws = ws;
      s.record.completed = true;
      if (s.idleTimer) clearTimeout(s.idleTimer);
      s.idleTimer = null;
      table.emit(s, 'upgrade.completed', { negotiation });
      table.endStream(s, { id: null, event: 'upgraded', data: '{}' });
      ws.on('message', (data) => ws.send(data));
      ws.on('error', () => {});
      ws.on('close', (code) => {
        if (s.state === 'terminated') return;
        table.closed(s, code === 1000 ? 'client_close' : `websocket_${code}`);
        table.terminate(s);
      });
    });
  }

  return { onUpgrade, close: () => wss.close() };
}
