// The soak's senders: a realistic fleet (scripts/bench/fleet.ts) generated a few seconds at a time, so a
// 30-minute run never holds its millions of events, signed in batches and posted open loop at a fixed
// rate (batch i starts when its events are due, whatever is still in flight, up to a cap), retried on
// no answer, 429 and 5xx like a Standard Webhooks sender. The ledger keeps what was acknowledged per
// server (events, and sessions: distinct tokens) for the end's "nothing lost, nothing counted twice".
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateFleet, serverName, type BenchEvent } from '../bench/fleet';

export const BATCH_EVENTS = 100;
/** Seconds of events generated at a time: small enough that generating them is no pause for the senders. */
const CHUNK_SECONDS = 2;
/** A saturating load (its rate set far above what the app takes) would otherwise generate millions at a time. */
const MAX_CHUNK_EVENTS = 20_000;
/** Requests in flight at most; past it the load falls behind its schedule (reported as `behindMs`). */
const MAX_IN_FLIGHT = 32;

export interface IngestAnswer {
  at: number;
  ms: number;
  status: number;
  /** A retry of a batch already sent (its first answer was not 200). */
  retry: boolean;
  server: string;
}

export interface ServerLedger {
  events: number;
  sessions: number;
}

export interface IngestLoad {
  answers: IngestAnswer[];
  /** Per server, what 200 answers acknowledged. */
  ledger: Map<string, ServerLedger>;
  /** Sum of `accepted` of the 200 answers, and of `duplicates`. */
  accepted: number;
  duplicates: number;
  /** Batches given up on (an answer that is not retried, or still failing when the load stopped). */
  failed: { status: number; body: string }[];
  /** Largest lag behind the schedule seen (ms). */
  behindMs: number;
  /** Events sent (first attempts). */
  sent: number;
  /** Batches in flight now (sent, not yet answered 200 or given up on). */
  inFlight(): number;
  stop(): Promise<void>;
}

interface Batch {
  server: string;
  events: BenchEvent[];
  chunk: Chunk;
  /** The chunk's last batch. */
  last: boolean;
}

/** A chunk's batches in flight and its acknowledged tokens (a chunk's sessions never straddle chunks). */
interface Chunk {
  open: number;
  allSent: boolean;
  tokens: Map<string, Set<string>>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function* batchesForever(servers: number, rate: number, prefix: string): Generator<Batch> {
  for (let c = 0; ; c++) {
    const now = Date.now();
    const byServer = new Map<string, BenchEvent[]>();
    for (const s of generateFleet({
      events: Math.min(MAX_CHUNK_EVENTS, Math.max(BATCH_EVENTS, Math.round(rate * CHUNK_SECONDS))),
      servers,
      // Timelines in the last 40 minutes, ended before now (a session is < 10 min long): in the stats window, none "future".
      fromMs: now - 40 * 60_000,
      toMs: now,
      prefix: `${prefix}${c.toString(36)}-`,
      seed: c + 1,
    })) {
      const list = byServer.get(s.server) ?? [];
      list.push(...s.events);
      byServer.set(s.server, list);
    }
    const chunk: Chunk = { open: 0, allSent: false, tokens: new Map() };
    const lists = [...byServer];
    const batches: Batch[] = [];
    for (let i = 0; lists.some(([, l]) => i < l.length); i += BATCH_EVENTS)
      for (const [server, list] of lists)
        if (i < list.length) batches.push({ server, events: list.slice(i, i + BATCH_EVENTS), chunk, last: false });
    batches[batches.length - 1].last = true;
    yield* batches;
  }
}

/** Starts the load; it runs until stop(), which waits for the batches in flight (their retries included). */
export function startIngestLoad(o: {
  url: string;
  secrets: ReadonlyMap<string, string>;
  rate: number;
  prefix: string;
  maxInFlight?: number;
}): IngestLoad {
  const hooks = new Map([...o.secrets].map(([name, secret]) => [name, new Webhook(secret)]));
  const load: IngestLoad = {
    answers: [],
    ledger: new Map([...o.secrets.keys()].map((s) => [s, { events: 0, sessions: 0 }])),
    accepted: 0,
    duplicates: 0,
    failed: [],
    behindMs: 0,
    sent: 0,
    inFlight: () => inFlight.size,
    stop: async () => undefined,
  };
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = o.maxInFlight ?? MAX_IN_FLIGHT;

  const post = async (b: Batch, msgId: string, payload: string) => {
    const now = new Date();
    const t = performance.now();
    try {
      const res = await fetch(`${o.url}/api/v1/ingest/${b.server}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': msgId,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': hooks.get(b.server)!.sign(msgId, now, payload),
        },
        body: payload,
        signal: AbortSignal.timeout(30_000),
      });
      return { status: res.status, text: await res.text(), ms: performance.now() - t, retryAfter: res.headers.get('retry-after') };
    } catch (err) {
      return { status: 0, text: String(err), ms: performance.now() - t, retryAfter: null };
    }
  };

  const send = async (b: Batch) => {
    const msgId = `msg_${randomUUID()}`;
    const payload = JSON.stringify({ events: b.events });
    for (let attempt = 0; ; attempt++) {
      const a = await post(b, msgId, payload);
      load.answers.push({ at: Date.now(), ms: a.ms, status: a.status, retry: attempt > 0, server: b.server });
      if (a.status === 200) {
        const body = JSON.parse(a.text) as { accepted: number; duplicates: number };
        load.accepted += body.accepted;
        load.duplicates += body.duplicates;
        load.ledger.get(b.server)!.events += b.events.length;
        const tokens = b.chunk.tokens.get(b.server) ?? new Set();
        for (const e of b.events) tokens.add(e.token);
        b.chunk.tokens.set(b.server, tokens);
        break;
      }
      const retryable = a.status === 0 || a.status === 429 || a.status >= 500;
      if (!retryable || (stopped && attempt >= 20)) {
        load.failed.push({ status: a.status, body: a.text.slice(0, 300) });
        break;
      }
      const hinted = a.retryAfter === null ? 0 : Number(a.retryAfter) * 1000 || 0;
      await sleep(Math.min(2000, Math.max(50 * 2 ** attempt, hinted)));
    }
    if (--b.chunk.open === 0 && b.chunk.allSent) countSessions(b.chunk);
  };
  // A chunk's sessions are counted once every batch of it was answered, and its token sets let go.
  const uncounted = new Set<Chunk>();
  const countSessions = (chunk: Chunk) => {
    uncounted.delete(chunk);
    for (const [server, tokens] of chunk.tokens) load.ledger.get(server)!.sessions += tokens.size;
    chunk.tokens.clear();
  };

  const running = (async () => {
    const started = performance.now();
    let due = 0;
    for (const b of batchesForever(o.secrets.size, o.rate, o.prefix)) {
      if (stopped) break;
      const wait = started + due - performance.now();
      if (wait > 0) await sleep(wait);
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
      if (stopped) break;
      load.behindMs = Math.max(load.behindMs, performance.now() - (started + due));
      b.chunk.open++;
      b.chunk.allSent = b.last;
      uncounted.add(b.chunk);
      load.sent += b.events.length;
      const p = send(b).finally(() => inFlight.delete(p));
      inFlight.add(p);
      due += (b.events.length / o.rate) * 1000;
    }
  })();

  load.stop = async () => {
    stopped = true;
    await running;
    await Promise.all(inFlight);
    // The chunk the load stopped in: only some of its batches were sent.
    for (const chunk of uncounted) countSessions(chunk);
  };
  return load;
}

/** The soak's servers: `count` names with fresh secrets (the fleet's own names, bench-00 …). */
export function soakServers(count: number, secret: () => string): Map<string, string> {
  return new Map(Array.from({ length: count }, (_, i) => [serverName(i), secret()] as const));
}
