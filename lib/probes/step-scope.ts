// One probe step's budget and belongings: a deadline every wait is cut to, and everything the
// step opened (streams, WebSockets, sessions), closed in reverse order when the step ends —
// whether it answered, failed or threw.
import type WebSocket from 'ws';
import { closeWebSocket, deleteSession, type ProbeStream, type WireContext } from './wire';

/** A session the step opened; DELETEd at the end unless something already ended it. */
export interface ProbeSession {
  token: string;
  alive: boolean;
}

/** Bound on each cleanup action, so a dead server cannot hold a step open. */
const CLEANUP_MS = 2_000;

export class StepScope {
  private readonly started = performance.now();
  private readonly cleanups: Array<() => Promise<unknown> | void> = [];

  constructor(
    readonly ctx: WireContext,
    readonly timeoutMs: number,
  ) {}

  /** Milliseconds left before the step's deadline (never negative). */
  remaining(): number {
    return Math.max(0, this.timeoutMs - (performance.now() - this.started));
  }

  elapsed(): number {
    return Math.round(performance.now() - this.started);
  }

  defer(cleanup: () => Promise<unknown> | void): void {
    this.cleanups.push(cleanup);
  }

  stream(stream: ProbeStream): ProbeStream {
    this.defer(() => stream.close());
    return stream;
  }

  /** Tokens of the sessions this step opened, in order. */
  readonly tokens: string[] = [];

  session(token: string): ProbeSession {
    const session: ProbeSession = { token, alive: true };
    this.tokens.push(token);
    this.defer(async () => {
      if (session.alive) await deleteSession(this.ctx, token, CLEANUP_MS);
      session.alive = false;
    });
    return session;
  }

  webSocket(ws: WebSocket): WebSocket {
    this.defer(() => closeWebSocket(this.ctx, ws, CLEANUP_MS));
    return ws;
  }

  async dispose(): Promise<void> {
    while (this.cleanups.length > 0) {
      const cleanup = this.cleanups.pop()!;
      try {
        await cleanup();
      } catch (err) {
        this.ctx.transcript.record('!', `cleanup failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}
