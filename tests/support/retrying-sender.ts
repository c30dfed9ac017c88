// Senders that behave like Standard Webhooks senders: every batch keeps its webhook-id and body
// on every retry; connection failures, timeouts, 429 and 5xx are retried with exponential
// backoff (Retry-After honoured, capped so tests stay short), anything else is final. Several
// senders run at once, optionally paced to a rate. Every answer is logged, so a test can say what
// the server answered while it was crashed, its database away or its file locked.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { createRng } from '@/lib/wire/random';
import { randomTimelines, shuffled, type SentEvent } from './random-timelines';

export interface Batch {
  server: string;
  events: SentEvent['event'][];
}

export interface Answer {
  /** HTTP status, or 0 for no answer (connection refused or reset, timeout). */
  status: number;
  at: number;
  ms: number;
  code?: string;
  retryAfter: string | null;
  error?: string;
}

export interface DeliveryLog {
  answers: Answer[];
  /** Sum of `accepted` over the final 200 answers: equals the distinct events when each is stored once. */
  accepted: number;
  duplicates: number;
  /** Batches that ended in an answer that is not retried (anything but 200 after retries). */
  failed: { batch: Batch; answer: Answer; body: string }[];
  /** Events of acknowledged batches, retried copies included once per batch: the senders' own record. */
  record: SentEvent[];
}

export interface DeliveryOptions {
  /** Base URL for a batch now (it changes when a test restarts the server; several instances may share the load). */
  url: (batchIndex: number) => string;
  secrets: Readonly<Record<string, string>>;
  concurrency: number;
  /** Events per second over all senders (paced from the start), or unlimited. */
  eventsPerSecond?: number;
  /** Backoff: first wait, doubled per attempt, at most `maxBackoffMs` (also caps Retry-After). */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** A request without an answer after this long counts as a hang (status 0, retried). */
  requestTimeoutMs?: number;
  /** Give up (fail the batch) after this long. */
  deadlineMs?: number;
  /** Called before each batch is first sent (tests use it to crash or stop things at chosen points). */
  beforeBatch?: (index: number) => Promise<void> | void;
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Splits an event stream into batches of 1..maxSize (sizes drawn with `rand`). */
export function splitIntoBatches(stream: readonly SentEvent[], maxSize: number, rand: () => number): Batch[] {
  const byServer = new Map<string, SentEvent['event'][]>();
  const batches: Batch[] = [];
  let want = 1 + Math.floor(rand() * maxSize);
  for (const { server, event } of stream) {
    const open = byServer.get(server) ?? [];
    open.push(event);
    byServer.set(server, open);
    if (open.length >= want) {
      batches.push({ server, events: open });
      byServer.set(server, []);
      want = 1 + Math.floor(rand() * maxSize);
    }
  }
  for (const [server, events] of byServer) if (events.length > 0) batches.push({ server, events });
  return batches;
}

/** `count` random timelines (tokens `${prefix}-i`) for alpha and beta, shuffled into batches of 1–10: a fault test's load. */
export function shuffledBatches(prefix: string, count: number, seed: number): Batch[] {
  const timelines = randomTimelines({ count, seed, prefix, servers: ['alpha', 'beta'], maxSteps: 8, spreadMs: 20 * 60_000 });
  return splitIntoBatches(shuffled(timelines.flat(), seed + 1), 10, createRng(seed + 2));
}

async function sendOnce(url: string, batch: Batch, secret: string, msgId: string, payload: string, timeoutMs: number) {
  const now = new Date();
  const started = performance.now();
  try {
    const res = await fetch(`${url}/api/v1/ingest/${batch.server}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': msgId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        // Re-signed per attempt with a fresh timestamp, as senders do; id and body stay the same.
        'webhook-signature': new Webhook(secret).sign(msgId, now, payload),
      },
      body: payload,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body: any = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: kept as text */
    }
    const answer: Answer = {
      status: res.status,
      at: Date.now(),
      ms: performance.now() - started,
      code: body?.error?.code ?? body?.code,
      retryAfter: res.headers.get('retry-after'),
    };
    return { answer, body, text };
  } catch (err) {
    const answer: Answer = {
      status: 0,
      at: Date.now(),
      ms: performance.now() - started,
      retryAfter: null,
      error: err instanceof Error ? `${err.name}: ${(err.cause as Error | undefined)?.message ?? err.message}` : String(err),
    };
    return { answer, body: null, text: '' };
  }
}

const retryable = (status: number) => status === 0 || status === 429 || status >= 500;

/** Delivers every batch (each to completion, with retries); resolves when all are answered for good. */
export async function deliverBatches(batches: readonly Batch[], o: DeliveryOptions): Promise<DeliveryLog> {
  const log: DeliveryLog = { answers: [], accepted: 0, duplicates: 0, failed: [], record: [] };
  const first = o.firstBackoffMs ?? 50;
  const max = o.maxBackoffMs ?? 1000;
  const timeout = o.requestTimeoutMs ?? 30_000;
  const deadline = Date.now() + (o.deadlineMs ?? 300_000);
  const started = performance.now();
  let next = 0;
  let scheduledEvents = 0;
  const worker = async () => {
    while (next < batches.length && !o.signal?.aborted) {
      const index = next++;
      const batch = batches[index];
      if (o.eventsPerSecond) {
        const due = started + (scheduledEvents / o.eventsPerSecond) * 1000;
        scheduledEvents += batch.events.length;
        if (due > performance.now()) await sleep(due - performance.now());
      }
      await o.beforeBatch?.(index);
      const msgId = `msg_${randomUUID()}`;
      const payload = JSON.stringify({ events: batch.events });
      for (let attempt = 0; ; attempt++) {
        const { answer, body, text } = await sendOnce(o.url(index), batch, o.secrets[batch.server], msgId, payload, timeout);
        log.answers.push(answer);
        if (answer.status === 200) {
          log.accepted += body.accepted;
          log.duplicates += body.duplicates;
          for (const event of batch.events) log.record.push({ server: batch.server, event });
          break;
        }
        if (!retryable(answer.status) || Date.now() > deadline || o.signal?.aborted) {
          log.failed.push({ batch, answer, body: text.slice(0, 500) });
          break;
        }
        const backoff = Math.min(max, first * 2 ** attempt);
        const hinted = answer.retryAfter === null ? 0 : Math.min(max, Number(answer.retryAfter) * 1000 || 0);
        await sleep(Math.max(backoff, hinted));
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return log;
}

/** Counts of answers by status (0 = no answer). */
export function statusCounts(answers: readonly Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

/** Servers with fresh secrets, and the DOORWATCH_SERVERS value that provisions them. */
export function senderServers(names: readonly string[], secret: () => string) {
  const secrets: Record<string, string> = Object.fromEntries(names.map((n) => [n, secret()]));
  return { secrets, env: { DOORWATCH_SERVERS: names.map((n) => `${n}=${secrets[n]}`).join(',') } };
}

/**
 * What a sender may see from Doorwatch in trouble: 200, no answer at all (the process is gone), or
 * 503 with Retry-After (retry cures it). Returns the answers that break that promise.
 */
export function brokenPromises(answers: readonly Answer[]): Answer[] {
  return answers.filter((a) => !(a.status === 200 || a.status === 0 || (a.status === 503 && a.retryAfter !== null)));
}
