import { Webhook } from 'standardwebhooks';
import { computeBackoffMs, parseRetryAfterMs } from './backoff';
import { EVENT_ID_PATTERN, INSTANCE_PATTERN, defaultInstance, newMessageId } from './ids';
import {
  ReporterError,
  type DropReason,
  type FetchLike,
  type RejectedEvent,
  type Reporter,
  type ReporterOptions,
  type ReporterStats,
  type ReportableEvent,
} from './types';

/** The ingest API's hard limits. */
export const MAX_EVENTS_PER_REQUEST = 1000;
export const MAX_BODY_BYTES = 1024 * 1024;

const BODY_PREFIX = '{"events":[';
// The body ends with this reporter's loss counts: `],"reporter":{"instance":…,"dropped":n,"failed":n}}`.
// Room for the longest such suffix is kept in every size check.
const BODY_SUFFIX_MAX = '],"reporter":{"instance":"","dropped":,"failed":}}'.length + 128 + 2 * 16;
const BODY_OVERHEAD = BODY_PREFIX.length + BODY_SUFFIX_MAX;
const USER_AGENT = 'doorwatch-reporter/1';

type Config = Required<Omit<ReporterOptions, 'onError' | 'onDrop' | 'fetch'>> &
  Pick<ReporterOptions, 'onError' | 'onDrop'> & { fetch: FetchLike };

/** One buffered event, serialised once at report() time (so later mutation by the caller cannot leak in). */
interface Entry {
  seq: number;
  id: string;
  json: string;
  bytes: number;
  /** performance.now() when buffered. */
  at: number;
}

/** The batch currently being delivered: on the wire, or waiting to retry. */
interface Batch {
  entries: Entry[];
  /** `webhook-id`: identical on every attempt as long as `body` is unchanged. */
  messageId: string;
  /** Serialised body; rebuilt (with a fresh messageId) only if overflow removed entries from it. */
  body: string | null;
  retries: number;
  startedAt: number;
  counted: boolean;
  /** True while sleeping between attempts (its entries may then be dropped on overflow). */
  waiting: boolean;
  wake: (() => void) | null;
}

type Outcome =
  | { kind: 'committed'; accepted: number; duplicates: number; rejected: RejectedEvent[] }
  | { kind: 'fatal'; status: number; serverCode?: string; message: string }
  | { kind: 'retry'; status?: number; retryAfterMs: number | null; error: unknown };

/** FIFO with O(1) shift; compacts occasionally. */
class Queue<T> {
  private items: T[] = [];
  private head = 0;
  get size(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  drain(): T[] {
    const out = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return out;
  }
}

const mono = (): number => performance.now();

function positiveInt(name: string, value: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`createReporter: ${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
  return value;
}

function resolveConfig(o: ReporterOptions): Config {
  let base: URL;
  try {
    base = new URL(o.url);
  } catch {
    throw new TypeError(`createReporter: url is not a valid URL: ${String(o.url)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError('createReporter: url must be http(s)');
  }
  if (typeof o.server !== 'string' || o.server === '') throw new TypeError('createReporter: server is required');
  if (typeof o.secret !== 'string' || o.secret === '') throw new TypeError('createReporter: secret is required');
  const fetchImpl = o.fetch ?? (globalThis.fetch as FetchLike | undefined);
  if (typeof fetchImpl !== 'function') throw new TypeError('createReporter: no global fetch; pass options.fetch');

  const cfg: Config = {
    url: base.toString(),
    server: o.server,
    secret: o.secret,
    maxBatchSize: positiveInt('maxBatchSize', o.maxBatchSize ?? 500, 1, MAX_EVENTS_PER_REQUEST),
    maxBatchBytes: positiveInt('maxBatchBytes', o.maxBatchBytes ?? 1_000_000, 64, MAX_BODY_BYTES),
    flushIntervalMs: positiveInt('flushIntervalMs', o.flushIntervalMs ?? 200, 0),
    maxBufferedEvents: positiveInt('maxBufferedEvents', o.maxBufferedEvents ?? 10_000),
    maxRetries: positiveInt('maxRetries', o.maxRetries ?? 8, 0),
    retryDeadlineMs: o.retryDeadlineMs ?? 5 * 60_000,
    baseBackoffMs: positiveInt('baseBackoffMs', o.baseBackoffMs ?? 500, 0),
    maxBackoffMs: positiveInt('maxBackoffMs', o.maxBackoffMs ?? 30_000, 0),
    requestTimeoutMs: positiveInt('requestTimeoutMs', o.requestTimeoutMs ?? 10_000),
    closeTimeoutMs: positiveInt('closeTimeoutMs', o.closeTimeoutMs ?? 10_000, 0),
    fetch: fetchImpl,
    onError: o.onError,
    onDrop: o.onDrop,
    idFactory: o.idFactory ?? newMessageId,
    instance: o.instance ?? defaultInstance(),
    random: o.random ?? Math.random,
  };
  if (!(cfg.retryDeadlineMs > 0)) throw new RangeError('createReporter: retryDeadlineMs must be > 0');
  if (!INSTANCE_PATTERN.test(cfg.instance)) throw new TypeError(`createReporter: instance must match ${INSTANCE_PATTERN}`);
  if (cfg.maxBufferedEvents < cfg.maxBatchSize) {
    throw new RangeError('createReporter: maxBufferedEvents must be >= maxBatchSize');
  }
  return cfg;
}

function validateEvent(event: unknown): string | null {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return 'event must be an object';
  const e = event as Record<string, unknown>;
  if (typeof e.id !== 'string' || !EVENT_ID_PATTERN.test(e.id)) {
    return 'event.id must be a string matching [A-Za-z0-9._:-]{1,128} (use newEventId())';
  }
  for (const key of ['token', 'type', 'at'] as const) {
    if (typeof e[key] !== 'string' || e[key] === '') return `event.${key} must be a non-empty string`;
  }
  if (e.seq !== undefined && !(typeof e.seq === 'number' && Number.isInteger(e.seq) && e.seq >= 0)) {
    return 'event.seq must be a non-negative integer';
  }
  if (e.data !== undefined && (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data))) {
    return 'event.data must be an object';
  }
  return null;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;
}

/**
 * Creates a batching, signing, retrying client for Doorwatch's ingest API.
 * See docs/reporter.md for the delivery guarantees.
 */
export function createReporter(options: ReporterOptions): Reporter {
  const cfg = resolveConfig(options);
  const webhook = new Webhook(cfg.secret); // throws on a malformed secret: fail at startup, not per batch
  const endpoint = new URL(`api/v1/ingest/${encodeURIComponent(cfg.server)}`, cfg.url.endsWith('/') ? cfg.url : `${cfg.url}/`).toString();

  const pending = new Queue<Entry>();
  let pendingBytes = 0;
  let current: Batch | null = null;
  let inFlight: AbortController | null = null;
  let nextSeq = 0;
  /** Monotonic time before which no request is started (server's Retry-After applies to the endpoint, not one batch). */
  let resumeAt = 0;
  let pumpTimer: NodeJS.Timeout | null = null;
  let closing = false;
  let closed = false;
  let closePromise: Promise<void> | null = null;
  const waiters: { target: number; resolve: () => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let dropNotes: Map<DropReason, string[]> | null = null;

  const s = { reported: 0, sent: 0, accepted: 0, duplicates: 0, rejected: 0, dropped: 0, failed: 0, retries: 0 };

  // ---- callbacks (a throwing callback must never break delivery) -------------------------------

  function emitError(err: ReporterError): void {
    if (!cfg.onError) return;
    try {
      cfg.onError(err);
    } catch {
      /* ignore */
    }
  }

  function noteDrop(reason: DropReason, ids: string[]): void {
    if (ids.length === 0) return;
    if (!dropNotes) {
      dropNotes = new Map();
      queueMicrotask(emitDrops);
    }
    const list = dropNotes.get(reason);
    if (list) list.push(...ids);
    else dropNotes.set(reason, ids.slice());
  }

  function emitDrops(): void {
    const notes = dropNotes;
    dropNotes = null;
    if (!notes) return;
    for (const [reason, eventIds] of notes) {
      const info = { reason, count: eventIds.length, eventIds };
      if (cfg.onDrop) {
        try {
          cfg.onDrop(info);
        } catch {
          /* ignore */
        }
      } else {
        emitError(new ReporterError('events_dropped', `dropped ${info.count} event(s): ${reason}`, { eventIds }));
      }
    }
  }

  // ---- timers: unref'd unless someone is awaiting flush()/close() -----------------------------

  function keepAlive(): boolean {
    return closing || waiters.length > 0;
  }

  function later(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, Math.max(0, Math.ceil(ms)));
    timers.add(t);
    if (!keepAlive()) t.unref();
    return t;
  }

  function cancel(t: NodeJS.Timeout | null): void {
    if (t) {
      clearTimeout(t);
      timers.delete(t);
    }
  }

  function syncRefs(): void {
    const keep = keepAlive();
    for (const t of timers) {
      if (keep) t.ref();
      else t.unref();
    }
  }

  // ---- bookkeeping ---------------------------------------------------------------------------

  function bufferedCount(): number {
    return pending.size + (current ? current.entries.length : 0);
  }

  /** Events settle out of order only in one way (pending head dropped while a batch is on the wire), so track the lowest unsettled seq. */
  function lowestUnsettled(): number {
    const c = current?.entries[0];
    if (c) return c.seq;
    const p = pending.peek();
    if (p) return p.seq;
    return nextSeq;
  }

  function checkWaiters(): void {
    if (waiters.length === 0) return;
    const low = lowestUnsettled();
    let changed = false;
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].target <= low) {
        waiters[i].resolve();
        waiters.splice(i, 1);
        changed = true;
      }
    }
    if (changed) syncRefs();
  }

  function enforceBound(): void {
    let over = bufferedCount() - cfg.maxBufferedEvents;
    if (over <= 0) return;
    const ids: string[] = [];
    // The oldest unacknowledged events are those of a batch sleeping before its retry. A batch on the
    // wire cannot be recalled, so then the oldest droppable events are at the head of the buffer.
    if (current && current.waiting && current.entries.length > 0) {
      const removed = current.entries.splice(0, Math.min(over, current.entries.length));
      for (const e of removed) ids.push(e.id);
      over -= removed.length;
      // Different body => different message: new webhook-id. Events that were already committed
      // under the old id come back as duplicates (the server dedupes by event id), not twice.
      current.body = null;
      current.messageId = cfg.idFactory();
      if (current.entries.length === 0) current.wake?.();
    }
    while (over > 0) {
      const e = pending.shift();
      if (!e) break;
      pendingBytes -= e.bytes;
      ids.push(e.id);
      over--;
    }
    s.dropped += ids.length;
    noteDrop('overflow', ids);
    checkWaiters();
  }

  // ---- sending -------------------------------------------------------------------------------

  function takeBatch(): Batch {
    const entries: Entry[] = [];
    let bytes = BODY_OVERHEAD;
    while (entries.length < cfg.maxBatchSize) {
      const e = pending.peek();
      if (!e) break;
      const add = e.bytes + (entries.length > 0 ? 1 : 0);
      if (entries.length > 0 && bytes + add > cfg.maxBatchBytes) break;
      pending.shift();
      pendingBytes -= e.bytes;
      entries.push(e);
      bytes += add;
    }
    return {
      entries,
      messageId: cfg.idFactory(),
      body: null,
      retries: 0,
      startedAt: mono(),
      counted: false,
      waiting: false,
      wake: null,
    };
  }

  function pump(): void {
    if (closed || current) return; // runBatch() calls pump() when the current batch settles
    cancel(pumpTimer);
    pumpTimer = null;
    const head = pending.peek();
    if (!head) {
      checkWaiters();
      return;
    }
    const now = mono();
    if (now < resumeAt) {
      pumpTimer = later(resumeAt - now, pump);
      return;
    }
    const urgent = closing || waiters.some((w) => w.target > head.seq);
    const full = pending.size >= cfg.maxBatchSize || pendingBytes + pending.size + BODY_OVERHEAD >= cfg.maxBatchBytes;
    const age = now - head.at;
    if (!urgent && !full && age < cfg.flushIntervalMs) {
      pumpTimer = later(cfg.flushIntervalMs - age, pump);
      return;
    }
    const batch = takeBatch();
    current = batch;
    void runBatch(batch);
  }

  function sleep(batch: Batch, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      batch.waiting = true;
      const done = (): void => {
        if (!batch.waiting) return;
        batch.waiting = false;
        batch.wake = null;
        cancel(t);
        resolve();
      };
      batch.wake = done;
      const t = later(ms, done);
    });
  }

  async function runBatch(batch: Batch): Promise<void> {
    try {
      while (!closed && batch.entries.length > 0) {
        // The loss counts are a snapshot taken when the body is built; Doorwatch keeps the largest seen.
        if (batch.body === null) {
          const status = JSON.stringify({ instance: cfg.instance, dropped: s.dropped, failed: s.failed });
          batch.body = `${BODY_PREFIX}${batch.entries.map((e) => e.json).join(',')}],"reporter":${status}}`;
        }
        if (!batch.counted) {
          batch.counted = true;
          s.sent += batch.entries.length;
        }
        const outcome = await attempt(batch.messageId, batch.body);
        if (closed) return; // close() timed out and already accounted for this batch
        if (outcome.kind === 'committed') {
          settleCommitted(batch, outcome);
          break;
        }
        if (outcome.kind === 'fatal') {
          s.rejected += batch.entries.length;
          emitError(
            new ReporterError('batch_rejected', `ingest refused the batch with ${outcome.status}: ${outcome.message}`, {
              status: outcome.status,
              serverCode: outcome.serverCode,
              eventIds: batch.entries.map((e) => e.id),
            }),
          );
          batch.entries = [];
          break;
        }
        if (outcome.retryAfterMs != null) resumeAt = Math.max(resumeAt, mono() + outcome.retryAfterMs);
        const delay = computeBackoffMs(batch.retries, {
          baseBackoffMs: cfg.baseBackoffMs,
          maxBackoffMs: cfg.maxBackoffMs,
          retryAfterMs: outcome.retryAfterMs,
          random: cfg.random,
        });
        if (batch.retries >= cfg.maxRetries || mono() + delay - batch.startedAt > cfg.retryDeadlineMs) {
          s.failed += batch.entries.length;
          emitError(
            new ReporterError('retries_exhausted', `gave up after ${batch.retries + 1} attempt(s): ${describe(outcome)}`, {
              status: outcome.status,
              eventIds: batch.entries.map((e) => e.id),
              cause: outcome.error,
            }),
          );
          batch.entries = [];
          break;
        }
        await sleep(batch, delay);
        if (closed || batch.entries.length === 0) break;
        batch.retries++;
        s.retries++;
      }
    } catch (err) {
      emitError(new ReporterError('internal', `reporter bug: ${String(err)}`, { cause: err }));
      if (current === batch && !closed) {
        s.failed += batch.entries.length;
        batch.entries = [];
      }
    } finally {
      if (current === batch) current = null;
      checkWaiters();
      pump();
    }
  }

  function settleCommitted(batch: Batch, o: Extract<Outcome, { kind: 'committed' }>): void {
    const n = batch.entries.length;
    const rejected = Math.min(o.rejected.length, n);
    const duplicates = Math.min(o.duplicates, n - rejected);
    // Derive accepted so that every event lands in exactly one bucket even if the server's counts are off.
    s.accepted += n - rejected - duplicates;
    s.duplicates += duplicates;
    s.rejected += rejected;
    if (o.rejected.length > 0) {
      const list = o.rejected.map((r) => ({ ...r, id: r.id || batch.entries[r.index]?.id || '' }));
      emitError(
        new ReporterError('events_rejected', `ingest dead-lettered ${list.length} event(s)`, {
          eventIds: list.map((r) => r.id),
          rejected: list,
        }),
      );
    }
    batch.entries = [];
  }

  async function attempt(messageId: string, body: string): Promise<Outcome> {
    const now = new Date();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': webhook.sign(messageId, now, body),
    };
    const ac = new AbortController();
    inFlight = ac;
    const timeout = later(cfg.requestTimeoutMs, () => ac.abort(new Error(`request timed out after ${cfg.requestTimeoutMs} ms`)));
    try {
      const res = await cfg.fetch(endpoint, { method: 'POST', headers, body, signal: ac.signal, redirect: 'manual' });
      const text = await res.text();
      return classify(res.status, res.headers.get('retry-after'), text);
    } catch (error) {
      return { kind: 'retry', retryAfterMs: null, error };
    } finally {
      cancel(timeout);
      if (inFlight === ac) inFlight = null;
    }
  }

  function classify(status: number, retryAfter: string | null, text: string): Outcome {
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    if (status >= 200 && status < 300) {
      // 2xx means committed, whatever the body looks like.
      const b = (json ?? {}) as { accepted?: unknown; duplicates?: unknown; rejected?: unknown };
      const rejected: RejectedEvent[] = Array.isArray(b.rejected)
        ? b.rejected.map((r: unknown) => {
            const x = (r ?? {}) as Record<string, unknown>;
            return {
              index: num(x.index) ?? -1,
              id: typeof x.id === 'string' ? x.id : '',
              code: typeof x.code === 'string' ? x.code : 'rejected',
              message: typeof x.message === 'string' ? x.message : '',
            };
          })
        : [];
      return { kind: 'committed', accepted: num(b.accepted) ?? 0, duplicates: num(b.duplicates) ?? 0, rejected };
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

  function describe(o: Extract<Outcome, { kind: 'retry' }>): string {
    if (o.error instanceof Error) {
      const cause = (o.error as { cause?: unknown }).cause;
      return cause instanceof Error ? `${o.error.message} (${cause.message})` : o.error.message;
    }
    return String(o.error);
  }

  // ---- close timeout -------------------------------------------------------------------------

  function giveUp(): void {
    if (closed) return;
    closed = true;
    const left = [...(current ? current.entries : []), ...pending.drain()];
    pendingBytes = 0;
    s.failed += left.length;
    if (current) {
      current.entries = [];
      current.wake?.();
      current = null;
    }
    inFlight?.abort(new Error('reporter closed'));
    cancel(pumpTimer);
    pumpTimer = null;
    if (left.length > 0) {
      emitError(
        new ReporterError('close_timeout', `close() timed out with ${left.length} event(s) unacknowledged`, {
          eventIds: left.map((e) => e.id),
        }),
      );
    }
    checkWaiters();
  }

  // ---- public API ----------------------------------------------------------------------------

  function report(event: ReportableEvent): boolean {
    s.reported++;
    if (closing) {
      s.dropped++;
      const id = (event as { id?: unknown } | null)?.id;
      noteDrop('closed', [typeof id === 'string' ? id : '']);
      return false;
    }
    const problem = validateEvent(event);
    let json = '';
    if (problem === null) {
      try {
        json = JSON.stringify(event);
      } catch (err) {
        return invalid(event, `event is not JSON-serialisable: ${String(err)}`);
      }
    } else {
      return invalid(event, problem);
    }
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes + BODY_OVERHEAD > cfg.maxBatchBytes) {
      return invalid(event, `event is ${bytes} bytes serialised, over the ${cfg.maxBatchBytes}-byte batch limit`);
    }
    pending.push({ seq: nextSeq++, id: event.id, json, bytes, at: mono() });
    pendingBytes += bytes;
    enforceBound();
    if (!current && (pumpTimer === null || pending.size >= cfg.maxBatchSize || pendingBytes + pending.size + BODY_OVERHEAD >= cfg.maxBatchBytes)) {
      pump();
    }
    return true;
  }

  function invalid(event: unknown, message: string): false {
    s.rejected++;
    const id = (event as { id?: unknown } | null)?.id;
    emitError(new ReporterError('invalid_event', message, { eventIds: typeof id === 'string' ? [id] : [] }));
    return false;
  }

  function flush(): Promise<void> {
    if (closed) return Promise.resolve();
    const target = nextSeq;
    if (lowestUnsettled() >= target) return Promise.resolve();
    return new Promise<void>((resolve) => {
      waiters.push({ target, resolve });
      syncRefs();
      pump();
    });
  }

  function close(): Promise<void> {
    if (closePromise) return closePromise;
    closing = true;
    syncRefs();
    closePromise = (async () => {
      const deadline = later(cfg.closeTimeoutMs, giveUp);
      try {
        await flush();
      } finally {
        cancel(deadline);
        closed = true;
        cancel(pumpTimer);
        pumpTimer = null;
        for (const t of timers) clearTimeout(t);
        timers.clear();
        emitDrops();
      }
    })();
    return closePromise;
  }

  function stats(): ReporterStats {
    return { ...s, pendingEvents: bufferedCount(), inFlightBatches: inFlight ? 1 : 0 };
  }

  return { report, flush, close, stats };
}
