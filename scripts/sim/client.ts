// Reference client driver: real HTTP/SSE and WebSocket on loopback, behaviour from client-machine.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { initialClientState, isResettable, stepClient, type ClientAction, type ClientInput, type ClientState } from './client-machine';
import type { FaultInjector, Resettable } from '@/lib/wire/injector';
import type { Ledger } from './ledger';
import { drawMs, type MsRange, type Rng } from '@/lib/wire/random';
import { SUBPROTOCOL } from '@/lib/wire/subprotocol';
import { SseParser } from '@/lib/wire/sse';

export interface SimClientOptions {
  /** Base URL of the server a new session is opened on. */
  server: () => string;
  /** Base URL a renegotiation opens its new session on (default: `server`). */
  renegotiateTo?: () => string;
  rng: Rng;
  ledger: Ledger;
  injector: FaultInjector | null;
  /** Wait between `upgrade-accepted` and sending the HTTP Upgrade: the boundary window. */
  windowMs: MsRange;
  /** Wait after a drop before resuming. */
  reconnectDelayMs: MsRange;
  /** Wait after `session-superseded` before opening the new session. */
  renegotiateDelayMs: MsRange;
  /** Share of reconnects made without Last-Event-ID (same token, fresh stream). */
  noLastEventIdShare: number;
  /** Pause between one session's end and the next. */
  thinkMs: MsRange;
  /** How long a WebSocket session lives before the client closes it (1000). */
  websocketHoldMs: MsRange;
  /** Whether the injector may reset this client now (default: always). */
  resetsOn?: () => boolean;
  /** Tells the fleet which token this client now holds (for targeted resets). */
  onToken?: (client: SimClient, token: string | null) => void;
}

export class SimClient implements Resettable {
  private state: ClientState = initialClientState();
  private base = '';
  private gen = 0;
  private req: ClientRequest | null = null;
  private socket: Socket | null = null;
  private live = false;
  private timers = new Set<NodeJS.Timeout>();
  private windowTimer: NodeJS.Timeout | null = null;
  private ws: WebSocket | null = null;
  /** Reconnection delay from the server's last `retry:` field; null → the configured range. */
  private serverRetryMs: number | null = null;
  private sawConflict = false;
  private stoppedResolve: (() => void) | null = null;
  readonly stopped: Promise<void>;

  constructor(private readonly o: SimClientOptions) {
    this.stopped = new Promise((resolve) => (this.stoppedResolve = resolve));
  }

  get phase(): ClientState['phase'] {
    return this.state.phase;
  }

  start(): void {
    this.dispatch({ type: 'start' });
  }

  /** Drain: finish or close the current session; resolves `stopped` when done. */
  stop(): Promise<void> {
    this.dispatch({ type: 'stop' });
    return this.stopped;
  }

  /** Abort everything at once (no clean close); for teardown after a failure. */
  kill(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.gen += 1;
    this.req?.destroy();
    this.ws?.terminate();
    this.o.injector?.disarmed(this);
    this.state = { ...this.state, phase: 'closed', stopping: true };
    this.stoppedResolve?.();
  }

  injectReset(): boolean {
    if (!isResettable(this.state) || !this.live || !this.socket || this.socket.destroyed) return false;
    if (this.o.resetsOn && !this.o.resetsOn()) return false;
    const socket = this.socket;
    this.gen += 1; // callbacks of the reset connection are stale from here on
    this.live = false;
    this.req = null;
    this.socket = null;
    socket.resetAndDestroy();
    this.dispatch({ type: 'reset' });
    return true;
  }

  private later(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  private dispatch(input: ClientInput): void {
    const { state, actions } = stepClient(this.state, input);
    this.state = state;
    for (const a of actions) this.perform(a);
    const inj = this.o.injector;
    if (inj) {
      if (isResettable(this.state) && this.live) inj.armed(this);
      else inj.disarmed(this);
    }
  }

  private perform(a: ClientAction): void {
    const { rng } = this.o;
    switch (a.type) {
      case 'open':
        this.base = a.previousToken !== null && this.o.renegotiateTo ? this.o.renegotiateTo() : this.o.server();
        this.sawConflict = false;
        this.connect(a.previousToken === null ? {} : { 'mcp-previous-session': a.previousToken }, 'open');
        break;
      case 'resume':
        this.connect({ 'mcp-session-id': a.token, ...(a.lastEventId === null ? {} : { 'last-event-id': a.lastEventId }) }, 'resume');
        break;
      case 'start-window':
        this.windowTimer = this.later(drawMs(rng, this.o.windowMs), () => {
          this.windowTimer = null;
          this.dispatch({ type: 'window-elapsed' });
        });
        break;
      case 'cancel-window':
        if (this.windowTimer) {
          clearTimeout(this.windowTimer);
          this.timers.delete(this.windowTimer);
        }
        this.windowTimer = null;
        break;
      case 'upgrade':
        this.upgrade(a.token, a.negotiation);
        break;
      case 'websocket-exchange':
        this.exchange();
        break;
      case 'schedule-reconnect':
        // A server's `retry:` sets the reconnection delay, as it does for an EventSource.
        this.later(this.serverRetryMs ?? drawMs(rng, this.o.reconnectDelayMs), () =>
          this.dispatch({ type: 'reconnect-due', withLastEventId: rng() >= this.o.noLastEventIdShare }),
        );
        break;
      case 'schedule-renegotiation':
        this.later(drawMs(rng, this.o.renegotiateDelayMs), () => this.dispatch({ type: 'renegotiate-due' }));
        break;
      case 'close-session': {
        const r = request(`${this.base}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': a.token }, agent: false });
        r.on('response', (res) => {
          res.resume();
          if (res.statusCode === 404) this.dispatch({ type: 'not-found' });
        });
        r.on('error', () => this.dispatch({ type: 'not-found' }));
        r.end();
        break;
      }
      case 'renegotiated':
        this.o.ledger.client.renegotiations += 1;
        break;
      case 'dual-rejected':
        this.sawConflict = true;
        this.o.ledger.client.dualRejections += 1;
        break;
      case 'session-ended': {
        const c = this.o.ledger.client;
        if (a.how === 'deadlock') {
          c.deadlocks += 1;
          if (this.sawConflict) c.dualDeadlocks += 1;
          else c.idleDeadlocks += 1;
        } else if (a.how === 'websocket') c.websocketSessions += 1;
        else if (a.how === 'lost') c.lost += 1;
        this.o.onToken?.(this, null);
        if (a.how === 'lost') {
          // Nothing should end this way; make sure no connection is left behind.
          this.gen += 1;
          this.req?.destroy();
          this.live = false;
        }
        if (!this.state.stopping && this.state.phase === 'idle')
          this.later(drawMs(rng, this.o.thinkMs), () => this.dispatch({ type: 'start' }));
        break;
      }
      case 'stopped':
        this.o.injector?.disarmed(this);
        this.stoppedResolve?.();
        break;
    }
  }

  private connect(headers: Record<string, string>, kind: 'open' | 'resume'): void {
    const gen = ++this.gen;
    const stale = () => gen !== this.gen;
    this.live = false;
    this.socket = null;
    const req = request(`${this.base}/mcp`, { method: 'GET', headers: { accept: 'text/event-stream', ...headers }, agent: false });
    this.req = req;
    req.on('socket', (s) => {
      s.setNoDelay(true);
      if (!stale()) this.socket = s;
    });
    req.on('response', (res: IncomingMessage) => {
      if (stale()) return void res.destroy();
      if (res.statusCode !== 200) {
        res.resume();
        this.req = null;
        this.dispatch({ type: 'not-found' });
        return;
      }
      this.live = true;
      res.setEncoding('utf8');
      const parser = new SseParser();
      if (kind === 'open') {
        const token = String(res.headers['mcp-session-id']);
        this.o.ledger.client.sessions += 1;
        this.o.onToken?.(this, token);
        this.dispatch({ type: 'opened', token });
      } else {
        this.dispatch({ type: 'resumed' });
      }
      res.on('data', (chunk: string) => {
        if (stale()) return;
        const events = parser.push(chunk);
        if (parser.retryMs !== null) this.serverRetryMs = parser.retryMs;
        for (const event of events) {
          if (stale()) return;
          this.dispatch({ type: 'sse', event });
        }
      });
      const end = () => {
        if (stale()) return;
        this.gen += 1;
        this.live = false;
        this.req = null;
        this.socket = null;
        this.dispatch({ type: 'stream-ended' });
      };
      res.on('end', end);
      res.on('close', end);
    });
    req.on('error', () => {
      if (stale()) return;
      this.gen += 1;
      this.live = false;
      this.req = null;
      this.dispatch(this.state.phase === 'opening' || this.state.phase === 'resuming' ? { type: 'not-found' } : { type: 'stream-ended' });
    });
    req.end();
  }

  private upgrade(token: string, negotiation: number): void {
    const url = `${this.base.replace(/^http/, 'ws')}/mcp/ws?session=${encodeURIComponent(token)}&negotiation=${negotiation}`;
    const ws = new WebSocket(url, [SUBPROTOCOL]);
    let settled = false;
    const settle = (status: number) => {
      if (settled) return;
      settled = true;
      this.dispatch({ type: 'handshake', status });
    };
    ws.on('open', () => {
      this.ws = ws;
      settle(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      settle(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => settle(0));
  }

  private exchange(): void {
    const ws = this.ws;
    if (!ws) return;
    ws.once('message', () => {
      this.later(drawMs(this.o.rng, this.o.websocketHoldMs), () => ws.close(1000));
    });
    ws.once('close', () => {
      this.ws = null;
      this.dispatch({ type: 'ws-done' });
    });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  }
}
