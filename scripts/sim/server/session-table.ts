// The server's session table: one entry per live token with its numbered SSE event log, the
// connected stream (if any), its Doorwatch timeline and its timers. Everything written to a
// session goes through here, so the idle deadline, drop accounting and reporting stay in one place.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import type { DoorwatchEvent, EventType } from '@/lib/contract/event';
import type { Reporter } from '@doorwatch/reporter';
import { formatSse } from '@/lib/wire/sse';
import type { Ledger, TokenRecord } from '../ledger';
import type { ServerMode } from './options';
import { progressNow } from './progress-clock';

export interface Conn {
  res: ServerResponse;
  endedByServer: boolean;
  dropped: boolean;
  reset: boolean;
}

export interface LogEntry {
  id: number;
  event: string;
  data: string;
}

/** A terminal SSE event: no id, so the client's cursor does not move. */
export interface TerminalEntry {
  id: null;
  event: string;
  data: string;
}

export interface Session {
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
  /**
   * The idle clock counts only silence the client could hear: time with a stream attached since
   * the last write on it. Time between streams (a reset, a slow reconnect under load) does not
   * count. `heardSilenceMs` is what earlier streams heard since the last write; `silenceSince`
   * is when the current stream's silence began (null while no stream is attached).
   */
  heardSilenceMs: number;
  silenceSince: number | null;
  idleTimer: NodeJS.Timeout | null;
  messageTimer: NodeJS.Timeout | null;
  upgradeTimer: NodeJS.Timeout | null;
}

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  readonly mode: ServerMode;
  readonly ledger: Ledger;
  private readonly reporter: Reporter | null;
  private readonly idleTimeoutMs: number;

  constructor(options: { mode: ServerMode; reporter: Reporter | null; ledger: Ledger; idleTimeoutMs: number }) {
    this.mode = options.mode;
    this.reporter = options.reporter;
    this.ledger = options.ledger;
    this.idleTimeoutMs = options.idleTimeoutMs;
  }

  get size(): number {
    return this.sessions.size;
  }

  get(token: string): Session | undefined {
    return this.sessions.get(token);
  }

  all(): Session[] {
    return [...this.sessions.values()];
  }

  /** A new session in the SSE state; its ledger record is filled in by the caller once opened. */
  add(token: string): Session {
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
      heardSilenceMs: 0,
      silenceSince: null,
      idleTimer: null,
      messageTimer: null,
      upgradeTimer: null,
    };
    this.sessions.set(token, s);
    return s;
  }

  /** Reports one transition; a refusing server also keeps it, as `decideResume` reads the timeline. */
  emit(s: Session, type: EventType, data: Record<string, unknown> = {}): number {
    const at = Date.now();
    const seq = s.seq++;
    const event = { id: `${s.token}.${seq}`, token: s.token, type, at: new Date(at).toISOString(), seq, data } as DoorwatchEvent;
    if (this.mode === 'refusing') s.timeline.push(event);
    this.reporter?.report(event);
    return at;
  }

  // --- stream plumbing ------------------------------------------------------------------

  write(s: Session, entry: LogEntry | TerminalEntry): void {
    const c = s.stream;
    if (!c || c.dropped || c.endedByServer) return;
    c.res.write(formatSse(entry));
    this.heard(s);
  }

  /** Numbers an event, keeps it in the log for resumes and writes it to the stream if connected. */
  append(s: Session, event: string, data: unknown): LogEntry {
    const entry: LogEntry = { id: s.nextId++, event, data: JSON.stringify(data) };
    s.log.push(entry);
    this.write(s, entry);
    return entry;
  }

  /** The client heard a write: its silence starts again. */
  private heard(s: Session): void {
    s.heardSilenceMs = 0;
    s.silenceSince = progressNow();
    this.armIdle(s);
  }

  private armIdle(s: Session): void {
    if (s.idleTimer) clearTimeout(s.idleTimer);
    s.idleTimer = setTimeout(() => this.onIdle(s), Math.max(0, this.idleTimeoutMs - s.heardSilenceMs));
  }

  /** The stream is gone: bank the silence it heard and stop the clock until the next stream. */
  private unheard(s: Session): void {
    if (s.silenceSince !== null) s.heardSilenceMs += progressNow() - s.silenceSince;
    s.silenceSince = null;
    if (s.idleTimer) clearTimeout(s.idleTimer);
    s.idleTimer = null;
  }

  /**
   * Node runs due timers before it polls for I/O, so after the process was starved of CPU the idle
   * timer could fire while the client's upgrade or resume already waited unread on its socket: a
   * "deadlock" of the simulator's own making (seen at load 28 with a 1.5 s idle timeout). The verdict
   * waits one turn of the loop (setImmediate runs after the poll phase), so that I/O is handled first.
   */
  private onIdle(s: Session): void {
    s.idleTimer = null;
    setImmediate(() => {
      // A write or a new stream during that turn re-armed the timer: it decides later.
      if (s.idleTimer === null) this.decideIdle(s);
    });
  }

  private decideIdle(s: Session): void {
    if (s.state === 'terminated' || s.state === 'websocket' || s.silenceSince === null) return;
    const idle = Math.round(s.heardSilenceMs + progressNow() - s.silenceSince);
    if (idle < this.idleTimeoutMs) {
      s.idleTimer = setTimeout(() => this.onIdle(s), this.idleTimeoutMs - idle);
      return;
    }
    s.record.timedOutAt = this.emit(s, 'session.timeout', { idleMs: idle });
    this.endStream(s, { id: null, event: 'session-timeout', data: JSON.stringify({ idleMs: idle }) });
    this.terminate(s);
  }

  closed(s: Session, reason: string): void {
    s.record.closedAt = this.emit(s, 'session.closed', { reason });
    s.record.closeReason = reason;
  }

  endStream(s: Session, terminal?: TerminalEntry): void {
    const c = s.stream;
    if (!c) return;
    if (terminal) this.write(s, terminal);
    c.endedByServer = true;
    s.stream = null;
    this.unheard(s);
    if (!c.dropped) c.res.end();
  }

  terminate(s: Session): void {
    s.state = 'terminated';
    for (const t of [s.idleTimer, s.messageTimer, s.upgradeTimer]) if (t) clearTimeout(t);
    s.idleTimer = s.messageTimer = s.upgradeTimer = null;
    s.timeline = [];
    s.log = [];
    this.sessions.delete(s.token);
  }

  /** The SSE connection is gone without the server ending it (reset, EOF): one stream.dropped. */
  dropped(s: Session, c: Conn, reason: string): void {
    if (c.dropped || c.endedByServer) return;
    c.dropped = true;
    if (s.stream === c) {
      s.stream = null;
      this.unheard(s);
    }
    if (s.state === 'terminated') return;
    s.record.drops += 1;
    this.emit(s, 'stream.dropped', { reason });
  }

  /** Makes this response the session's SSE stream. */
  attach(s: Session, req: IncomingMessage, res: ServerResponse): Conn {
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
    res.on('close', () => this.dropped(s, c, c.reset ? 'tcp_reset' : 'eof'));
    s.stream = c;
    s.silenceSince = progressNow();
    this.armIdle(s);
    return c;
  }

  /** Attaches a stream and replays the log after the cursor (all of it without one). */
  replay(s: Session, req: IncomingMessage, res: ServerResponse, after: number | null): number {
    this.attach(s, req, res);
    const entries = after === null ? s.log : s.log.filter((e) => e.id > after);
    for (const e of entries) this.write(s, e);
    return this.emit(s, 'resume.accepted', { replayed: entries.length });
  }
}
