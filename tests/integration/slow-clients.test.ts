// Slow clients (issue 28): 500 connections that hold the server without finishing a request (headers
// trickled a line at a time, an ingest body trickled a byte at a time, idle keep-alives) do not starve
// ingest, and the server cuts each of them after its timeout (DOORWATCH_HEADERS_TIMEOUT_MS /
// _REQUEST_TIMEOUT_MS: 408 and closed; DOORWATCH_KEEP_ALIVE_TIMEOUT_MS: closed). Ingest p95 is measured
// without and then with the slow connections open (a cut one is replaced while measuring) and
// printed with the load average; the test asserts every ingest succeeds within a generous bound,
// not a ratio (the machine is shared). Figures: docs/reliability.md#slow-clients.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { until } from '../support/alert-fixtures';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { testProvider } from '../support/test-database';
import { generateSecret } from '@/lib/contract/server-secret';

const SECRET = generateSecret();
const HEADERS_MS = 4_000;
const REQUEST_MS = 6_000;
const KEEP_ALIVE_MS = 5_000;
const SLOW = 500;
const POSTS = 40;
/** Generous: an ingest request answered later than this counts as starved. */
const INGEST_BOUND_MS = 10_000;

type Kind = 'headers' | 'body' | 'idle';
interface Slow {
  kind: Kind;
  socket: Socket;
  /** When the server's clock for it started: connect (headers, body) or its answer (idle). */
  since: number;
  closedAt: number | null;
  firstLine: string;
}

let app: AppServer;
const slow: Slow[] = [];
let sustain = false;

/** Opens one slow connection of `kind`; while `sustain` holds, a closed one is replaced. */
function openSlow(kind: Kind): Slow {
  const { port } = new URL(app.url);
  const socket = connect(Number(port), '127.0.0.1');
  const s: Slow = { kind, socket, since: Date.now(), closedAt: null, firstLine: '' };
  let trickle: ReturnType<typeof setInterval> | null = null;
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    if (!s.firstLine) {
      s.firstLine = d.split('\r\n')[0];
      if (kind === 'idle') s.since = Date.now();
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (trickle) clearInterval(trickle);
    s.closedAt = Date.now();
    if (sustain) slow.push(openSlow(kind));
  });
  socket.on('connect', () => {
    s.since = Date.now();
    if (kind === 'headers') {
      socket.write('POST /api/v1/ingest/alpha HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      trickle = setInterval(() => socket.write(`x-slow-${Date.now()}: 1\r\n`), 1_000);
    } else if (kind === 'body') {
      const ts = Math.floor(Date.now() / 1000);
      socket.write(
        'POST /api/v1/ingest/alpha HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n' +
          `webhook-id: msg_slow_${ts}_${Math.random()}\r\nwebhook-timestamp: ${ts}\r\nwebhook-signature: v1,AAAA\r\n\r\n{`,
      );
      trickle = setInterval(() => socket.write(' '), 1_000);
    } else socket.write('GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  });
  return s;
}

const open = () => slow.filter((s) => s.closedAt === null).length;

/** POSTS signed batches, 4 at a time; every one must be stored (200) within the bound. Returns latencies (ms). */
async function ingestRound(label: string): Promise<{ latencies: number[]; minOpen: number }> {
  const latencies: number[] = [];
  let next = 0;
  let minOpen = open();
  const worker = async () => {
    for (let i = next++; i < POSTS; i = next++) {
      minOpen = Math.min(minOpen, open());
      const token = `${label}-${i}`;
      const events = [{ id: `${token}-0`, token, type: 'session.opened', at: new Date(Date.now() - 60_000).toISOString(), data: {} }];
      const started = performance.now();
      const res = await Promise.race([
        postEvents(app.url, 'alpha', SECRET, events),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`${label} POST ${i} took over ${INGEST_BOUND_MS} ms`)), INGEST_BOUND_MS),
        ),
      ]);
      latencies.push(performance.now() - started);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return { latencies, minOpen };
}

function pct(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] * 10) / 10;
}

before(async () => {
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: `alpha=${SECRET}`,
      DOORWATCH_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      DOORWATCH_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      DOORWATCH_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
    },
  });
});
after(async () => {
  sustain = false;
  for (const s of slow) s.socket.destroy();
  await app?.stop();
});

test(`500 slow connections neither starve ingest nor outlive their timeouts (${testProvider()})`, async () => {
  await ingestRound('warm'); // first requests compile and cache: not part of either figure
  const quiet = await ingestRound('quiet');
  const loadQuiet = loadavg()[0];

  sustain = true;
  const kinds: Kind[] = ['headers', 'body', 'idle'];
  for (let i = 0; i < SLOW; i++) slow.push(openSlow(kinds[i % 3]));
  // The first wave, not `slow`: closed connections are replaced while `sustain` holds, so at load some replacement
  // is always still connecting or waiting for its answer, and a condition over the growing list may never hold at
  // the moment it is looked at (a CI run at load ~25 waited 30 s for "every idle one answered" in vain).
  const firstWave = slow.slice();
  await until(
    'the slow connections to open',
    async () => firstWave.every((s) => s.socket.readyState === 'open' || s.closedAt !== null),
    Boolean,
  );
  const firstIdle = firstWave.filter((s) => s.kind === 'idle');
  await until(
    'the first idle ones to get their answer',
    async () => firstIdle.every((s) => s.firstLine !== '' || s.closedAt !== null),
    Boolean,
  );
  assert.equal(firstIdle.filter((s) => s.firstLine === '').length, 0, 'an idle keep-alive connection was closed without an answer');
  const loaded = await ingestRound('loaded');
  const loadLoaded = loadavg()[0];
  sustain = false;

  await until(
    'every slow connection to be cut',
    async () => open(),
    (n) => n === 0,
    Math.max(HEADERS_MS, REQUEST_MS, KEEP_ALIVE_MS) + 20_000,
  );
  const byKind = (k: Kind) => slow.filter((s) => s.kind === k);
  for (const s of byKind('headers')) assert.match(s.firstLine, /^HTTP\/1\.1 408/, 'a trickled header block is answered 408');
  for (const s of byKind('body')) assert.match(s.firstLine, /^HTTP\/1\.1 408/, 'a trickled body is answered 408');
  for (const s of byKind('idle')) assert.match(s.firstLine, /^HTTP\/1\.1 200/);
  // Never before its timeout (the server may be late by its 1 s check, or more on a busy machine).
  const held = (k: Kind) => byKind(k).map((s) => s.closedAt! - s.since);
  const timeoutOf: Record<Kind, number> = { headers: HEADERS_MS, body: REQUEST_MS, idle: KEEP_ALIVE_MS };
  for (const k of kinds) assert.ok(Math.min(...held(k)) >= timeoutOf[k] - 250, `${k}: cut after ${Math.min(...held(k))} ms`);

  const after = await ingestRound('after');
  const figures = {
    provider: testProvider(),
    slowConnections: SLOW,
    openedInAll: slow.length,
    openWhileMeasuring: loaded.minOpen,
    ingestMs: {
      quiet: { p50: pct(quiet.latencies, 0.5), p95: pct(quiet.latencies, 0.95) },
      loaded: { p50: pct(loaded.latencies, 0.5), p95: pct(loaded.latencies, 0.95) },
      after: { p95: pct(after.latencies, 0.95) },
    },
    cutAfterMs: Object.fromEntries(kinds.map((k) => [k, { min: Math.min(...held(k)), p50: pct(held(k), 0.5), max: Math.max(...held(k)) }])),
    loadavg1m: { quiet: loadQuiet, loaded: loadLoaded },
  };
  console.log(`slow clients: ${JSON.stringify(figures)}`);
  assert.ok(loaded.minOpen >= SLOW * 0.9, `only ${loaded.minOpen} slow connections were open while measuring`);
});
