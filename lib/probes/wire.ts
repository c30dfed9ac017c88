// The probe's I/O primitives over real HTTP and WebSocket: an SSE stream with deadline-bounded
// reads and a real TCP reset, a WebSocket handshake, a session DELETE. Redirects are never
// followed (node:http does not, and `ws` is told not to): a 3xx comes back as a status.
// Every exchange is written to the step's transcript. Connections go only to the step's checked
// addresses (`ctx.lookup`, resolve-target.ts): nothing here resolves a name by itself.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import WebSocket from 'ws';
import type { Resettable } from '@/lib/wire/injector';
import { SUBPROTOCOL } from '@/lib/wire/subprotocol';
import { SseParser, type SseEvent } from '@/lib/wire/sse';
import type { TranscriptRecorder } from './transcript';

/** What a probe step reads at most from a server: a hostile or broken one cannot grow the process. */
export interface WireLimits {
  /** Bytes of one SSE event (its lines until the blank line ending it, or one unterminated line). */
  maxEventBytes: number;
  /** Bytes read from all the step's streams together. */
  maxStepBytes: number;
  /** Largest WebSocket message accepted (`ws` maxPayload); a larger one closes the socket (1009). */
  maxWsPayload: number;
}

export const DEFAULT_WIRE_LIMITS: WireLimits = { maxEventBytes: 64 * 1024, maxStepBytes: 1024 * 1024, maxWsPayload: 64 * 1024 };

export interface WireContext {
  /** The MCP endpoint. */
  target: URL;
  /** Answers the target's host from the addresses checked against DOORWATCH_PROBE_ALLOW (DNS pinned for the step). */
  lookup: LookupFunction;
  /** Sent on every request (the credential, if any). */
  headers: Record<string, string>;
  transcript: TranscriptRecorder;
  limits: WireLimits;
  /** Bytes read so far by the step's streams (against `limits.maxStepBytes`). */
  received: { bytes: number };
}

/** Why a stream was cut by the probe itself: a code for the step's detail (`probe limit …`). */
type WireLimit = 'sse_event_bytes' | 'step_bytes' | 'queued_events';

/** Events read off the socket but not yet taken by the step. */
const MAX_QUEUED = 1_000;

export type StreamRead =
  /** `at`: when the event came off the wire (`performance.now()`), the reading its transcript entry is stamped with. */
  { kind: 'event'; event: SseEvent; at: number } | { kind: 'end'; detail: string | null; limit?: WireLimit } | { kind: 'timeout' };

/** Feeding the parser in slices bounds what one chunk can add before a limit is checked. */
const SLICE_BYTES = 4 * 1024;

const DATA_PREVIEW = 200;

/** The extension's own events: kept in a full transcript, where ordinary messages give way. */
const PROTOCOL_EVENTS = new Set(['upgrade-accepted', 'session-superseded', 'upgraded']);

/** One SSE response being read. `next` waits at most the given time; nothing is buffered unboundedly. */
export class ProbeStream implements Resettable {
  private readonly queue: StreamRead[] = [];
  private waiter: ((read: StreamRead) => void) | null = null;
  private ended = false;

  constructor(
    private readonly req: ClientRequest,
    private readonly res: IncomingMessage,
    private readonly socket: Socket,
    private readonly ctx: WireContext,
  ) {
    const parser = new SseParser();
    const decoder = new StringDecoder('utf8');
    // Bytes since the last complete event: what the parser may be holding.
    let pending = 0;
    res.on('data', (chunk: Buffer) => {
      for (let at = 0; at < chunk.length && !this.ended; at += SLICE_BYTES) {
        const slice = chunk.subarray(at, at + SLICE_BYTES);
        ctx.received.bytes += slice.length;
        if (ctx.received.bytes > ctx.limits.maxStepBytes) {
          return this.cut('step_bytes', `the step read more than ${ctx.limits.maxStepBytes} bytes from the server`);
        }
        const events = parser.push(decoder.write(slice));
        pending = events.length > 0 ? 0 : pending + slice.length;
        for (const event of events) {
          const preview = event.data.length > DATA_PREVIEW ? `${event.data.slice(0, DATA_PREVIEW)}…` : event.data;
          const at = performance.now();
          ctx.transcript.record(
            '<',
            `sse ${event.id === null ? '' : `id=${event.id} `}event=${event.event} data=${preview}`,
            PROTOCOL_EVENTS.has(event.event),
            at,
          );
          this.push({ kind: 'event', event, at });
        }
        if (pending > ctx.limits.maxEventBytes) {
          return this.cut('sse_event_bytes', `an SSE event went past ${ctx.limits.maxEventBytes} bytes without ending`);
        }
      }
    });
    const end = (detail: string | null) => {
      if (this.ended) return;
      this.ended = true;
      ctx.transcript.record('<', `stream ended${detail ? ` (${detail})` : ''}`);
      this.push({ kind: 'end', detail });
    };
    res.on('end', () => end(null));
    res.on('error', (err) => end(err.message));
    res.on('close', () => end(null));
  }

  get open(): boolean {
    return !this.ended;
  }

  /** The next event, the end of the stream, or a timeout after `ms`. */
  next(ms: number): Promise<StreamRead> {
    const read = this.queue.shift();
    if (read) return Promise.resolve(read);
    if (this.ended) return Promise.resolve({ kind: 'end', detail: null });
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.waiter = null;
          resolve({ kind: 'timeout' });
        },
        Math.max(0, ms),
      );
      this.waiter = (r) => {
        clearTimeout(timer);
        this.waiter = null;
        resolve(r);
      };
    });
  }

  /** A real TCP reset (RST, not FIN), as the sim's injector applies to its clients. */
  injectReset(): boolean {
    if (this.ended || this.socket.destroyed) return false;
    this.ctx.transcript.record('!', 'tcp reset');
    this.ended = true;
    this.socket.resetAndDestroy();
    this.push({ kind: 'end', detail: 'reset by probe' });
    return true;
  }

  /** The probe stops reading: a limit was passed. The parser and its buffers go with the stream. */
  private cut(limit: WireLimit, detail: string): void {
    if (this.ended) return;
    this.ctx.transcript.record('!', `probe limit ${limit}: ${detail}; stream closed`);
    this.ended = true;
    this.res.destroy();
    this.req.destroy();
    this.push({ kind: 'end', detail: `probe limit ${limit}: ${detail}`, limit });
  }

  close(): void {
    if (!this.ended) this.ctx.transcript.record('!', 'stream closed by probe');
    this.ended = true;
    this.res.destroy();
    this.req.destroy();
  }

  private push(read: StreamRead): void {
    if (this.waiter) return this.waiter(read);
    // A server flooding events between reads is cut off: the probe only ever needs a few.
    if (read.kind === 'event' && this.queue.length >= MAX_QUEUED) {
      return this.cut('queued_events', `more than ${MAX_QUEUED} events arrived faster than the probe reads them`);
    }
    this.queue.push(read);
  }
}

export type OpenResult =
  | { kind: 'stream'; status: number; sessionId: string | null; stream: ProbeStream; latencyMs: number }
  | { kind: 'status'; status: number; location: string | null; latencyMs: number }
  | { kind: 'error'; detail: string; latencyMs: number; timedOut: boolean };

function requestFor(url: URL) {
  return url.protocol === 'https:' ? httpsRequest : httpRequest;
}

/**
 * GET the endpoint as an SSE stream; a non-200 answer is drained and reported as a status. `started`: the
 * `performance.now()` reading the request is stamped with (a caller timing an answer from it passes its own).
 */
export function openStream(
  ctx: WireContext,
  extra: Record<string, string>,
  timeoutMs: number,
  started = performance.now(),
): Promise<OpenResult> {
  const since = () => Math.round(performance.now() - started);
  const headers = { accept: 'text/event-stream', ...ctx.headers, ...extra };
  ctx.transcript.record(
    '>',
    `GET ${ctx.target.pathname}${ctx.target.search} HTTP/1.1\nhost: ${ctx.target.host}\n${ctx.transcript.headers(headers)}`,
    true,
    started,
  );
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: OpenResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = requestFor(ctx.target)(ctx.target, { method: 'GET', headers, agent: false, lookup: ctx.lookup });
    const timer = setTimeout(() => {
      ctx.transcript.record('!', `no response within ${Math.round(timeoutMs)} ms`);
      settle({ kind: 'error', detail: `no response within ${Math.round(timeoutMs)} ms`, latencyMs: since(), timedOut: true });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      ctx.transcript.record('<', `HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}\n${ctx.transcript.headers(res.headers)}`);
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        res.resume();
        req.destroy();
        const location = typeof res.headers.location === 'string' ? res.headers.location : null;
        return settle({ kind: 'status', status, location, latencyMs: since() });
      }
      const sid = res.headers['mcp-session-id'];
      const stream = new ProbeStream(req, res, res.socket, ctx);
      if (settled) return stream.close();
      settle({ kind: 'stream', status, sessionId: typeof sid === 'string' ? sid : null, stream, latencyMs: since() });
    });
    req.on('error', (err) => {
      if (settled) return;
      ctx.transcript.record('!', `request error: ${err.message}`);
      settle({ kind: 'error', detail: `request failed: ${err.message}`, latencyMs: since(), timedOut: false });
    });
    req.end();
  });
}

export type HandshakeResult =
  | { kind: 'open'; ws: WebSocket; latencyMs: number }
  | { kind: 'status'; status: number; latencyMs: number }
  | { kind: 'error'; detail: string; latencyMs: number };

/** The HTTP Upgrade with `Sec-WebSocket-Protocol: mcp.v1`. */
export function handshake(ctx: WireContext, url: URL, timeoutMs: number): Promise<HandshakeResult> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  ctx.transcript.record(
    '>',
    `GET ${url.pathname}${url.search} HTTP/1.1 (Upgrade: websocket)\nsec-websocket-protocol: ${SUBPROTOCOL}\n${ctx.transcript.headers(ctx.headers)}`,
  );
  return new Promise((resolve) => {
    let settled = false;
    const ws = new WebSocket(url, [SUBPROTOCOL], {
      headers: ctx.headers,
      followRedirects: false,
      lookup: ctx.lookup,
      handshakeTimeout: timeoutMs,
      maxPayload: ctx.limits.maxWsPayload,
    });
    const settle = (r: HandshakeResult) => {
      if (settled) return;
      settled = true;
      if (r.kind !== 'open') ws.terminate();
      resolve(r);
    };
    ws.on('open', () => {
      ctx.transcript.record('<', `HTTP/1.1 101 Switching Protocols\nsec-websocket-protocol: ${ws.protocol}`);
      if (ws.protocol !== SUBPROTOCOL)
        return settle({ kind: 'error', detail: `server chose subprotocol "${ws.protocol}", not ${SUBPROTOCOL}`, latencyMs: since() });
      settle({ kind: 'open', ws, latencyMs: since() });
    });
    ws.on('unexpected-response', (_req, res) => {
      ctx.transcript.record('<', `HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}\n${ctx.transcript.headers(res.headers)}`);
      res.resume();
      settle({ kind: 'status', status: res.statusCode ?? 0, latencyMs: since() });
    });
    ws.on('error', (err) => {
      ctx.transcript.record('!', `websocket error: ${err.message}`);
      settle({ kind: 'error', detail: `handshake failed: ${err.message}`, latencyMs: since() });
    });
  });
}

/** Close 1000 and wait for the closing handshake (bounded), then make sure the socket is gone. */
export function closeWebSocket(ctx: WireContext, ws: WebSocket, timeoutMs: number): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  ctx.transcript.record('>', 'ws close 1000');
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      ws.terminate();
      resolve();
    }, timeoutMs);
    ws.once('close', (code) => {
      clearTimeout(timer);
      ctx.transcript.record('<', `ws closed ${code}`);
      resolve();
    });
    ws.close(1000);
  });
}

/** DELETE the session; resolves with the status (0 on a transport error or timeout). */
export function deleteSession(ctx: WireContext, token: string, timeoutMs: number): Promise<number> {
  const headers = { ...ctx.headers, 'mcp-session-id': token };
  ctx.transcript.record('>', `DELETE ${ctx.target.pathname} HTTP/1.1\n${ctx.transcript.headers(headers)}`);
  return new Promise((resolve) => {
    const req = requestFor(ctx.target)(ctx.target, { method: 'DELETE', headers, agent: false, lookup: ctx.lookup });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(0);
    }, timeoutMs);
    req.on('response', (res) => {
      ctx.transcript.record('<', `HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}`);
      res.resume();
      res.on('end', () => {
        clearTimeout(timer);
        resolve(res.statusCode ?? 0);
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      ctx.transcript.record('!', `delete failed: ${err.message}`);
      resolve(0);
    });
    req.end();
  });
}
