// The adapter's entry point: one per server process. It scopes an event store per session (the
// SDK never tells a store the session id), and watches every HTTP request to the MCP endpoint to
// report resumes, their answers and dropped streams.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DoorwatchEvent } from '../event.js';
import type { EventStoreLike, McpSdkAdapterOptions } from './types.js';
import { WatchedSession } from './watched-session.js';

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_REMEMBER_ENDED = 10_000;

export interface McpSdkAdapter {
  /**
   * Watch a new session. Generate its id yourself and give the transport
   * `sessionIdGenerator: () => sessionId` and the returned `eventStore`, `onsessioninitialized`
   * and `onsessionclosed`; then `attach(transport)`.
   */
  session<M>(sessionId: string, store: EventStoreLike<M>): WatchedSession<M>;
  /**
   * Run one HTTP request to the MCP endpoint through the adapter: `handler` is what you would
   * do anyway (find the transport, `transport.handleRequest(req, res, body)`, or answer 404).
   */
  handle(req: IncomingMessage, res: ServerResponse, handler: () => unknown): Promise<void>;
  /** A live or recently ended session by id. */
  get(sessionId: string): WatchedSession<unknown> | undefined;
  /** Stop all idle timers (reports nothing; close your transports yourself). */
  dispose(): void;
}

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v : null;
}

export function createMcpSdkAdapter(options: McpSdkAdapterOptions): McpSdkAdapter {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const rememberEnded = options.rememberEndedSessions ?? DEFAULT_REMEMBER_ENDED;
  const live = new Map<string, WatchedSession<unknown>>();
  // Insertion-ordered, so the oldest ended session is forgotten first.
  const ended = new Map<string, WatchedSession<unknown>>();
  const report = (e: DoorwatchEvent) => void options.reporter.report(e);

  const onEnded = (s: WatchedSession<unknown>) => {
    live.delete(s.sessionId);
    ended.set(s.sessionId, s);
    while (ended.size > rememberEnded) ended.delete(ended.keys().next().value!);
  };

  return {
    session<M>(sessionId: string, store: EventStoreLike<M>): WatchedSession<M> {
      if (live.has(sessionId)) throw new RangeError(`session ${sessionId} is already watched`);
      const s = new WatchedSession<M>(sessionId, store, report, { idleTimeoutMs }, onEnded as (s: WatchedSession<M>) => void);
      live.set(sessionId, s as WatchedSession<unknown>);
      return s;
    },

    get: (sessionId) => live.get(sessionId) ?? ended.get(sessionId),

    async handle(req, res, handler) {
      const sid = header(req, 'mcp-session-id');
      const s = sid === null ? undefined : (live.get(sid) ?? ended.get(sid));
      if (!s) {
        await handler();
        return;
      }
      const lastEventId = req.method === 'GET' ? header(req, 'last-event-id') : null;
      s.requestStarted();
      if (lastEventId !== null) s.resumeRequested(lastEventId);

      // The status is known when the head is written, long before an SSE response finishes.
      let status: number | null = null;
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
        if (status === null) {
          status = args[0];
          if (lastEventId !== null) s.resumeAnswered(lastEventId, status);
        }
        return writeHead.apply(this, args);
      } as ServerResponse['writeHead'];

      res.once('close', () => {
        // Closed before the server finished writing it: the client went away (reset, EOF).
        if (!res.writableFinished && status !== null && status < 300) s.streamDropped('client_gone');
        s.requestEnded();
      });
      await handler();
    },

    dispose() {
      for (const s of live.values()) s.dispose();
    },
  };
}
