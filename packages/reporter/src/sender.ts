// One HTTP attempt: sign, POST with a timeout, read the answer and classify it as committed,
// fatal (not retried) or retry (with the server's Retry-After, when it gave one).
import { parseRetryAfterMs } from './backoff.js';
import type { Signer } from './signing.js';
import type { Timers } from './timers.js';
import type { FetchLike } from './types.js';
import type { RejectedEvent } from './errors.js';

const USER_AGENT = 'doorwatch-reporter/1';

export type Outcome =
  | { kind: 'committed'; accepted: number; duplicates: number; rejected: RejectedEvent[] }
  | { kind: 'fatal'; status: number; serverCode?: string; message: string }
  | { kind: 'retry'; status?: number; retryAfterMs: number | null; error: unknown };

export type Committed = Extract<Outcome, { kind: 'committed' }>;
export type Retry = Extract<Outcome, { kind: 'retry' }>;

export interface SenderOptions {
  endpoint: string;
  sign: Signer;
  fetch: FetchLike;
  requestTimeoutMs: number;
  timers: Timers;
}

export class Sender {
  private inFlight: AbortController | null = null;

  constructor(private readonly o: SenderOptions) {}

  /** A request is on the wire. */
  get busy(): boolean {
    return this.inFlight !== null;
  }

  /** Never throws: a network error or timeout is a `retry` outcome. */
  async send(messageId: string, body: string): Promise<Outcome> {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': this.o.sign(messageId, timestamp, body),
    };
    const ac = new AbortController();
    this.inFlight = ac;
    const { requestTimeoutMs } = this.o;
    const timeout = this.o.timers.later(requestTimeoutMs, () => ac.abort(new Error(`request timed out after ${requestTimeoutMs} ms`)));
    try {
      const res = await this.o.fetch(this.o.endpoint, { method: 'POST', headers, body, signal: ac.signal, redirect: 'manual' });
      const text = await res.text();
      return classifyResponse(res.status, res.headers.get('retry-after'), text);
    } catch (error) {
      return { kind: 'retry', retryAfterMs: null, error };
    } finally {
      this.o.timers.cancel(timeout);
      if (this.inFlight === ac) this.inFlight = null;
    }
  }

  abort(reason: Error): void {
    this.inFlight?.abort(reason);
  }
}

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;
}

/** 2xx committed (whatever the body); 429 and 5xx retried; anything else (3xx, other 4xx) fatal. */
export function classifyResponse(status: number, retryAfter: string | null, text: string): Outcome {
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  if (status >= 200 && status < 300) {
    const b = (json ?? {}) as { accepted?: unknown; duplicates?: unknown; rejected?: unknown };
    const rejected: RejectedEvent[] = Array.isArray(b.rejected)
      ? b.rejected.map((r: unknown) => {
          const x = (r ?? {}) as Record<string, unknown>;
          return {
            index: count(x.index) ?? -1,
            id: typeof x.id === 'string' ? x.id : '',
            code: typeof x.code === 'string' ? x.code : 'rejected',
            message: typeof x.message === 'string' ? x.message : '',
          };
        })
      : [];
    return { kind: 'committed', accepted: count(b.accepted) ?? 0, duplicates: count(b.duplicates) ?? 0, rejected };
  }
  const err = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const serverCode = typeof err?.code === 'string' ? err.code : undefined;
  const message = typeof err?.message === 'string' ? err.message : text.slice(0, 200);
  if (status === 429 || status >= 500) {
    return {
      kind: 'retry',
      status,
      retryAfterMs: parseRetryAfterMs(retryAfter),
      error: new Error(`HTTP ${status}${serverCode ? ` ${serverCode}` : ''}: ${message}`),
    };
  }
  return { kind: 'fatal', status, serverCode, message };
}

/** The last failure of a batch, for the retries_exhausted message. */
export function describeRetry(o: Retry): string {
  if (o.error instanceof Error) {
    const cause = (o.error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${o.error.message} (${cause.message})` : o.error.message;
  }
  return String(o.error);
}
