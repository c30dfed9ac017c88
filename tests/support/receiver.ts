/**
 * A real Doorwatch-ingest-shaped HTTP receiver for reporter tests: node:http on 127.0.0.1 with an
 * ephemeral port, Standard Webhooks verification via the `standardwebhooks` package, idempotent
 * storage by event id, and a script of failures to play back (socket resets, 5xx, 429 + Retry-After,
 * delays, 4xx, "committed but the response got lost").
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ZIngestEnvelope } from '@/lib/contract/ingest-envelope';

export type Behaviour =
  /** Verify, store, answer 200 (207 when rejectEvent refuses some). */
  | { kind: 'ok' }
  /** Reset the TCP connection without answering (nothing stored). */
  | { kind: 'reset' }
  /** Store the events, then reset the connection: the sender cannot know it was committed. */
  | { kind: 'commit-then-reset' }
  /** Answer with this status and an `{"error":{...}}` body, optionally with Retry-After. Nothing stored. */
  | { kind: 'status'; status: number; retryAfter?: string; code?: string }
  /** Wait, then behave as `then` (default ok). */
  | { kind: 'delay'; ms: number; then?: Behaviour };

export interface ReceivedRequest {
  /** performance.now() when the request body had been read. */
  at: number;
  webhookId: string;
  webhookTimestamp: string;
  signatureValid: boolean;
  body: string;
  eventIds: string[];
  /** HTTP status answered, or 'reset'. */
  outcome: number | 'reset';
}

export interface ReceiverOptions {
  server?: string;
  secret?: string;
}

export interface Receiver {
  /** Base URL to give the reporter (`http://127.0.0.1:<port>`). */
  url: string;
  server: string;
  secret: string;
  /** Committed events by id, in first-commit order. */
  events: Map<string, Record<string, unknown>>;
  requests: ReceivedRequest[];
  /** webhook-ids seen with two different bodies (must stay empty). */
  conflicts: string[];
  /** Queue behaviours for the next requests, in order. */
  script(...behaviours: Behaviour[]): void;
  /** Behaviour once the script is exhausted (default ok). */
  setDefault(behaviour: Behaviour): void;
  /** Per-event validation: return an error code to reject (dead-letter) the event, null to accept. */
  rejectEvent: ((event: Record<string, unknown>) => string | null) | null;
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const MAX_BODY = 1024 * 1024;

export async function startReceiver(opts: ReceiverOptions = {}): Promise<Receiver> {
  const server = opts.server ?? 'test-server';
  const secret = opts.secret ?? newSecret();
  const wh = new Webhook(secret);
  const queue: Behaviour[] = [];
  let fallback: Behaviour = { kind: 'ok' };
  const firstBody = new Map<string, string>();

  const receiver: Receiver = {
    url: '',
    server,
    secret,
    events: new Map(),
    requests: [],
    conflicts: [],
    script: (...b) => void queue.push(...b),
    setDefault: (b) => void (fallback = b),
    rejectEvent: null,
    waitForRequests: async (n, timeoutMs = 5000) => {
      const until = performance.now() + timeoutMs;
      while (receiver.requests.length < n) {
        if (performance.now() > until) throw new Error(`timed out waiting for ${n} requests (got ${receiver.requests.length})`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
    return status;
  }
  const error = (res: http.ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>) =>
    send(res, status, { error: { code, message } }, headers);

  function commit(events: Record<string, unknown>[]): {
    accepted: number;
    duplicates: number;
    rejected: { index: number; id: string; code: string; message: string }[];
  } {
    let accepted = 0;
    let duplicates = 0;
    const rejected: { index: number; id: string; code: string; message: string }[] = [];
    events.forEach((ev, index) => {
      const id = String(ev.id);
      const code = receiver.rejectEvent?.(ev) ?? null;
      if (code) {
        rejected.push({ index, id, code, message: `rejected by test receiver: ${code}` });
      } else if (receiver.events.has(id)) {
        duplicates++;
      } else {
        receiver.events.set(id, ev);
        accepted++;
      }
    });
    return { accepted, duplicates, rejected };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size <= MAX_BODY) chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    const hdr = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(' ') : (v ?? '');
    };
    const record: ReceivedRequest = {
      at: performance.now(),
      webhookId: hdr('webhook-id'),
      webhookTimestamp: hdr('webhook-timestamp'),
      signatureValid: false,
      body: raw,
      eventIds: [],
      outcome: 'reset',
    };
    receiver.requests.push(record);

    let behaviour: Behaviour = queue.shift() ?? fallback;
    while (behaviour.kind === 'delay') {
      await new Promise((r) => setTimeout(r, (behaviour as { ms: number }).ms));
      behaviour = (behaviour as { then?: Behaviour }).then ?? { kind: 'ok' };
    }

    if (req.method !== 'POST' || req.url !== `/api/v1/ingest/${encodeURIComponent(server)}`) {
      record.outcome = error(res, 404, 'not_found', `no route ${req.method} ${req.url}`);
      return;
    }
    if (!/^application\/json\b/.test(hdr('content-type'))) {
      record.outcome = error(res, 415, 'unsupported_media_type', 'expected application/json');
      return;
    }
    if (size > MAX_BODY) {
      record.outcome = error(res, 413, 'payload_too_large', 'body over 1 MiB');
      return;
    }
    try {
      wh.verify(raw, {
        'webhook-id': record.webhookId,
        'webhook-timestamp': record.webhookTimestamp,
        'webhook-signature': hdr('webhook-signature'),
      });
      record.signatureValid = true;
    } catch (err) {
      record.outcome = error(res, 401, 'invalid_signature', String(err));
      return;
    }
    const seen = firstBody.get(record.webhookId);
    if (seen === undefined) firstBody.set(record.webhookId, raw);
    else if (seen !== raw) receiver.conflicts.push(record.webhookId);

    let events: Record<string, unknown>[];
    try {
      // The real envelope contract: the SDK's bodies (events and its reporter status) must pass it.
      const envelope = ZIngestEnvelope.safeParse(JSON.parse(raw));
      if (!envelope.success) throw new Error(envelope.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const parsed = envelope.data;
      for (const e of parsed.events) {
        if (typeof e !== 'object' || e === null || typeof (e as { id?: unknown }).id !== 'string')
          throw new Error('every event needs an id');
      }
      events = parsed.events as Record<string, unknown>[];
    } catch (err) {
      record.outcome = error(res, 400, 'invalid_body', String(err));
      return;
    }
    record.eventIds = events.map((e) => String(e.id));

    switch (behaviour.kind) {
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'commit-then-reset':
        commit(events);
        req.socket.resetAndDestroy();
        return;
      case 'status':
        record.outcome = error(
          res,
          behaviour.status,
          behaviour.code ?? `scripted_${behaviour.status}`,
          'scripted failure',
          behaviour.retryAfter !== undefined ? { 'retry-after': behaviour.retryAfter } : {},
        );
        return;
      case 'ok': {
        const result = commit(events);
        record.outcome = send(res, result.rejected.length > 0 ? 207 : 200, result);
        return;
      }
    }
  }

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) error(res, 500, 'receiver_bug', String(err));
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  return receiver;
}
