// Reference MCP-style server for the simulator: SSE streams with numbered events and
// Last-Event-ID resumption, an in-band upgrade (`upgrade-accepted` SSE event, then an HTTP
// Upgrade to WebSocket with `Sec-WebSocket-Protocol: mcp.v1`), and an idle timeout. Every
// transition is reported to Doorwatch through the reporter SDK with real timestamps.
//
// Two modes:
// - `refusing`: resume requests go through Doorwatch's own `decideResume`; at the upgrade
//   boundary the stream is closed with a terminal `session-superseded` event and the token burned.
// - `naive`: the two failure variants of the design note. A resume with Last-Event-ID at/after
//   the pending upgrade replays "everything after it" (nothing) and leaves an idle stream; a
//   reconnect without Last-Event-ID on the same token gets a fresh stream and a SECOND
//   `upgrade-accepted`, whose handshake the WebSocket layer then rejects with 409.
//
// HTTP surface (all on one port):
//   GET    /mcp             new session (optional `Mcp-Previous-Session: <burned token>`)
//   GET    /mcp             with `Mcp-Session-Id` (+ optional `Last-Event-ID`): resume
//   DELETE /mcp             with `Mcp-Session-Id`: close the session
//   GET    /mcp/ws?session=<token>&negotiation=<eventId>  HTTP Upgrade, subprotocol mcp.v1
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DoorwatchEvent, EventType } from '@/lib/contract/event';
import { decideResume } from '@/lib/boundary/decide-resume';
import type { Reporter } from '@/lib/reporter';
import { formatSse } from './sse';
import type { Ledger, TokenRecord } from './ledger';

export type ServerMode = 'refusing' | 'naive';
export const SUBPROTOCOL = 'mcp.v1';

export interface SimServerOptions {
  name: string;
  mode: ServerMode;
  /** Where transitions go; null = not reported (unit use). */
  reporter: Reporter | null;
  ledger: Ledger;
  /** Idle timeout: nothing written to the session for this long ends it. Default 300 s. */
  idleTimeoutMs?: number;
  /** Interval of ordinary `message` events on a live, not-yet-upgrading session. Default 500 ms. */
  messageIntervalMs?: number;
  /** How long after opening a session the server offers the upgrade. */
  upgradeAfterMs: () => number;
  /** Called synchronously right after `upgrade-accepted` was written to a connected stream. */
  onUpgradeWritten?: (token: string, eventId: number) => void;
}

interface Conn {
  res: ServerResponse;
  endedByServer: boolean;
  dropped: boolean;
  reset: boolean;
}

interface LogEntry {
  id: number;
  event: string;
  data: string;
}

interface Session {
  token: string;
  record: TokenRecord;
  seq: number;
  nextId: number;
  log: LogEntry[];
  state: 'sse' | 'pending' | 'websocket' | 'terminated';
  /** Pending negotiations (upgrade-accepted event ids), the original first. */
  negotiations: number[];
  timeline: DoorwatchEvent[];
  stream: Conn | null;
  ws: WebSocket | null;
  lastWriteAt: number;
  idleTimer: NodeJS.Timeout | null;
  messageTimer: NodeJS.Timeout | null;
  upgradeTimer: NodeJS.Timeout | null;
}

export interface SimServer {
  name: string;
  mode: ServerMode;
  url: string;
  port: number;
  /** Sessions not yet terminated. */
  liveSessions(): number;
  close(): Promise<void>;
}

const newToken = () => `s_${randomBytes(9).toString('base64url')}`;

export async function startSimServer(options: SimServerOptions): Promise<SimServer> {
  const { name, mode, reporter, ledger } = options;
  const idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
  const messageIntervalMs = options.messageIntervalMs ?? 500;
  const sessions = new Map<string, Session>();
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  });
  let closing = false;

  function emit(s: Session, type: EventType, data: Record<string, unknown> = {}): number {
    const at = Date.now();
    const seq = s.seq++;
    const event = { id: `${s.token}.${seq}`, token: s.token, type, at: new Date(at).toISOString(), seq, data } as DoorwatchEvent;
    if (mode === 'refusing') s.timeline.push(event);
    reporter?.report(event);
    return at;
  }

  // --- stream plumbing ------------------------------------------------------------------

  function write(s: Session, entry: LogEntry | { id: null; event: string; data: string }): void {
    const c = s.stream;
    if (!c || c.dropped || c.endedByServer) return;
    c.res.write(formatSse(entry));
  }

  function append(s: Session, event: string, data: unknown): LogEntry {
    const entry: LogEntry = { id: s.nextId++, event, data: JSON.stringify(data) };
    s.log.push(entry);
    write(s, entry);
    touch(s);
    return entry;
  }

  /** Something was written for the session: push its idle deadline out. */
  function touch(s: Session): void {
    s.lastWriteAt = Date.now();
    if (s.idleTimer) s.idleTimer.refresh();
    else s.idleTimer = setTimeout(() => onIdle(s), idleTimeoutMs);
  }

  function onIdle(s: Session): void {
    s.idleTimer = null;
    if (s.state === 'terminated' || s.state === 'websocket') return;
    const idle = Date.now() - s.lastWriteAt;
    if (idle < idleTimeoutMs) {
      s.idleTimer = setTimeout(() => onIdle(s), idleTimeoutMs - idle);
      return;
    }
    s.record.timedOutAt = emit(s, 'session.timeout', { idleMs: idle });
    endStream(s, { id: null, event: 'session-timeout', data: JSON.stringify({ idleMs: idle }) });
    terminate(s);
  }

  function closed(s: Session, reason: string): void {
    s.record.closedAt = emit(s, 'session.closed', { reason });
    s.record.closeReason = reason;
  }

  function endStream(s: Session, terminal?: { id: null; event: string; data: string }): void {
    const c = s.stream;
    if (!c) return;
    if (terminal) write(s, terminal);
    c.endedByServer = true;
    s.stream = null;
    if (!c.dropped) c.res.end();
  }

  function terminate(s: Session): void {
    s.state = 'terminated';
    for (const t of [s.idleTimer, s.messageTimer, s.upgradeTimer]) if (t) clearTimeout(t);
    s.idleTimer = s.messageTimer = s.upgradeTimer = null;
    s.timeline = [];
    s.log = [];
    sessions.delete(s.token);
  }

  /** The SSE connection is gone without the server ending it (reset, EOF): one stream.dropped. */
  function dropped(s: Session, c: Conn, reason: string): void {
    if (c.dropped || c.endedByServer) return;
    c.dropped = true;
    if (s.stream === c) s.stream = null;
    if (s.state === 'terminated') return;
    s.record.drops += 1;
    emit(s, 'stream.dropped', { reason });
  }

  function attach(s: Session, req: IncomingMessage, res: ServerResponse): Conn {
    const c: Conn = { res, endedByServer: false, dropped: false, reset: false };
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'close',
      'mcp-session-id': s.token,
    });
    req.socket.setNoDelay(true);
    req.socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET') c.reset = true;
    });
    res.on('close', () => dropped(s, c, c.reset ? 'tcp_reset' : 'eof'));
    s.stream = c;
    return c;
  }

  // --- the session life ----------------------------------------------------------------

  function scheduleMessages(s: Session): void {
    s.messageTimer = setInterval(() => {
      if (s.state === 'sse') append(s, 'message', { n: s.nextId });
    }, messageIntervalMs);
  }

  function offerUpgrade(s: Session): void {
    s.upgradeTimer = null;
    if (s.state !== 'sse') return;
    s.state = 'pending';
    if (s.messageTimer) clearInterval(s.messageTimer);
    s.messageTimer = null;
    const id = s.nextId;
    const connected = s.stream !== null;
    append(s, 'upgrade-accepted', { url: `/mcp/ws?session=${s.token}&negotiation=${id}`, protocol: SUBPROTOCOL });
    s.negotiations = [id];
    emit(s, 'upgrade.accepted', { eventId: id });
    if (connected) options.onUpgradeWritten?.(s.token, id);
  }

  function openSession(req: IncomingMessage, res: ServerResponse): void {
    const previous = header(req, 'mcp-previous-session');
    const token = newToken();
    const s: Session = {
      token,
      record: undefined as unknown as TokenRecord,
      seq: 0,
      nextId: 1,
      log: [],
      state: 'sse',
      negotiations: [],
      timeline: [],
      stream: null,
      ws: null,
      lastWriteAt: Date.now(),
      idleTimer: null,
      messageTimer: null,
      upgradeTimer: null,
    };
    sessions.set(token, s);
    attach(s, req, res);
    const at = emit(s, 'session.opened', previous ? { previousToken: previous } : {});
    ledger.opened(name, token, at, previous ?? null);
    s.record = ledger.get(token)!;
    append(s, 'message', { hello: token });
    scheduleMessages(s);
    s.upgradeTimer = setTimeout(() => offerUpgrade(s), options.upgradeAfterMs());
  }

  function resume(s: Session, req: IncomingMessage, res: ServerResponse): void {
    const raw = header(req, 'last-event-id');
    const lastEventId = raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
    // A resume before we noticed the old connection die: that connection is dropped now.
    if (s.stream) dropped(s, s.stream, 'superseded_by_resume');
    const requestedAt = emit(s, 'resume.requested', { lastEventId });
    // The boundary by the server's own session table: upgrade-accepted durable, handshake
    // pending, and no cursor or one at/after the (original) pending upgrade.
    const atBoundary = s.state === 'pending' && (lastEventId === null || lastEventId >= s.negotiations[0]);
    if (atBoundary) s.record.boundaryAt ??= requestedAt;
    const firstBoundaryAnswer = atBoundary && s.record.answer === null;

    if (mode === 'refusing') {
      const decision = decideResume(s.timeline, { lastEventId });
      if ((decision.action === 'refuse') !== atBoundary) {
        ledger.anomalies.push(`${s.token}: decideResume=${decision.action} but own table says boundary=${atBoundary}`);
      }
      if (decision.action === 'refuse') {
        attach(s, req, res);
        endStream(s, { id: null, event: 'session-superseded', data: JSON.stringify({ reason: 'upgrade_boundary', upgradeEventId: decision.upgradeEventId }) });
        const at = emit(s, 'resume.refused', { reason: 'session-superseded' });
        s.record.refusedAt ??= at;
        if (firstBoundaryAnswer) {
          s.record.answer = 'refused';
          s.record.answeredAt = at;
        }
        terminate(s); // the token is burned: later requests for it get 404
        return;
      }
      if (decision.action === 'not_applicable') {
        res.writeHead(409, { connection: 'close' }).end();
        return;
      }
      replay(s, req, res, decision.fromEventId);
      return;
    }

    // naive
    if (s.state === 'pending' && lastEventId === null) {
      // Variant 2: a fresh stream for a reused token, and a second negotiation for it.
      attach(s, req, res);
      const at = emit(s, 'resume.accepted', { replayed: 0 });
      if (firstBoundaryAnswer) {
        s.record.answer = 'naive_resume';
        s.record.answeredAt = at;
      }
      const id = s.nextId;
      append(s, 'upgrade-accepted', { url: `/mcp/ws?session=${s.token}&negotiation=${id}`, protocol: SUBPROTOCOL });
      s.negotiations.push(id);
      emit(s, 'upgrade.accepted', { eventId: id, negotiation: s.negotiations.length });
      s.record.dual = true;
      return;
    }
    // Variant 1 (and every ordinary resume): replay what is after the cursor — at the
    // boundary that is nothing, and the stream stays open and idle.
    const at = replay(s, req, res, lastEventId);
    if (firstBoundaryAnswer) {
      s.record.answer = 'naive_resume';
      s.record.answeredAt = at;
    }
  }

  function replay(s: Session, req: IncomingMessage, res: ServerResponse, after: number | null): number {
    attach(s, req, res);
    const entries = after === null ? s.log : s.log.filter((e) => e.id > after);
    for (const e of entries) write(s, e);
    if (entries.length > 0) touch(s);
    return emit(s, 'resume.accepted', { replayed: entries.length });
  }

  function closeSession(s: Session, res: ServerResponse): void {
    if (s.ws) {
      res.writeHead(409, { connection: 'close' }).end();
      return;
    }
    closed(s, 'client_close');
    endStream(s, { id: null, event: 'session-closed', data: '{}' });
    terminate(s);
    res.writeHead(204, { connection: 'close' }).end();
  }

  // --- WebSocket upgrade ---------------------------------------------------------------

  function refuseUpgrade(socket: Duplex, status: number, text: string): void {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {});
    const url = new URL(req.url ?? '/', 'http://sim');
    const s = sessions.get(url.searchParams.get('session') ?? '');
    const negotiation = Number(url.searchParams.get('negotiation'));
    if (url.pathname !== '/mcp/ws' || !s || s.state === 'terminated') return refuseUpgrade(socket, 404, 'Not Found');
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    if (!protocols.includes(SUBPROTOCOL)) return refuseUpgrade(socket, 400, 'Bad Request');
    if (s.state !== 'pending' || negotiation !== s.negotiations[0]) {
      // Another negotiation holds (or held) this token: the WebSocket layer refuses the second.
      refuseUpgrade(socket, 409, 'Conflict');
      s.record.dual = true;
      emit(s, 'upgrade.rejected', { status: 409, negotiation });
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
      emit(s, 'upgrade.completed', { negotiation });
      endStream(s, { id: null, event: 'upgraded', data: '{}' });
      ws.on('message', (data) => ws.send(data));
      ws.on('error', () => {});
      ws.on('close', (code) => {
        if (s.state === 'terminated') return;
        closed(s, code === 1000 ? 'client_close' : `websocket_${code}`);
        terminate(s);
      });
    });
  }

  // --- routing -------------------------------------------------------------------------

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    if (url.pathname !== '/mcp' || closing) {
      res.writeHead(closing ? 503 : 404, { connection: 'close' }).end();
      return;
    }
    const token = header(req, 'mcp-session-id');
    const s = token ? sessions.get(token) : undefined;
    if (req.method === 'GET') {
      if (!token) return openSession(req, res);
      if (!s) return void res.writeHead(404, { connection: 'close' }).end();
      return resume(s, req, res);
    }
    if (req.method === 'DELETE') {
      if (!s) return void res.writeHead(404, { connection: 'close' }).end();
      return closeSession(s, res);
    }
    res.writeHead(405, { connection: 'close' }).end();
  });
  server.on('upgrade', onUpgrade);
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    name,
    mode,
    port,
    url: `http://127.0.0.1:${port}`,
    liveSessions: () => sessions.size,
    async close() {
      closing = true;
      for (const s of [...sessions.values()]) {
        if (s.state !== 'terminated') {
          closed(s, 'shutdown');
          endStream(s);
          s.ws?.close(1001);
          terminate(s);
        }
      }
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
