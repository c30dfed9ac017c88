// Ingest benchmark: signed batches of 500 realistic events over loopback HTTP, a few in
// flight, against SQLite, PostgreSQL and two app instances sharing one PostgreSQL database.
// In the same run, the raw driver inserts the same Event rows (better-sqlite3 prepared
// statement in one transaction; pg COPY FROM STDIN) so the app's rate is reported as a ratio of
// what the driver can do.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Webhook } from 'standardwebhooks';
import { generateSecret } from '@/lib/contract/server-secret';
import { generateFleet, serverName, type BenchEvent } from './fleet';
import {
  cleanupSqlite,
  createPgDatabase,
  dropPgDatabase,
  latencySummary,
  log,
  machine,
  num,
  prepareDatabase,
  round,
  startApp,
  launchMode,
  tempSqliteUrl,
  buildInfo,
  appDir,
  type Args,
  type BenchApp,
  type TreeMemory,
} from './common';

interface Batch {
  server: string;
  events: BenchEvent[];
  payload: string;
}

export function makeBatches(total: number, servers: number, batchSize: number, prefix: string): Batch[] {
  const now = Date.now();
  const byServer = new Map<string, BenchEvent[]>();
  // Timelines in the last 30 minutes (so they land in the stats window and no deadlock is "future").
  for (const s of generateFleet({ events: total, servers, fromMs: now - 30 * 60_000, toMs: now - 60_000, prefix, seed: 7 })) {
    let list = byServer.get(s.server);
    if (!list) byServer.set(s.server, (list = []));
    list.push(...s.events);
  }
  // Batches of one server each (a sender posts its own events); sessions may straddle batches.
  const perServer = [...byServer.entries()].map(([server, events]) => {
    const out: Batch[] = [];
    for (let i = 0; i < events.length; i += batchSize) {
      const part = events.slice(i, i + batchSize);
      out.push({ server, events: part, payload: JSON.stringify({ events: part }) });
    }
    return out;
  });
  // Interleave servers, like a fleet posting at the same time.
  const batches: Batch[] = [];
  for (let i = 0; perServer.some((b) => i < b.length); i++) for (const b of perServer) if (i < b.length) batches.push(b[i]);
  return batches;
}

interface RunResult {
  events: number;
  accepted: number;
  requests: number;
  failures: number;
  seconds: number;
  eventsPerSec: number;
  requestMs: ReturnType<typeof latencySummary>;
  /** Per app: peak RSS of its whole process tree (sampled sum over every process `npm start` runs). */
  peakRssMb: number[];
  memory: TreeMemory[];
  /** The paced rate asked for (open loop), when this run was paced. */
  pacedEventsPerSec?: number;
  /** CPU seconds per wall second of each app process (1.0 = one core saturated) and of this load generator. */
  appCpuCores: number[];
  loaderCpuCores: number;
}

/**
 * Posts batches to the apps (round robin). Saturation (`paceEventsPerSec` unset): `concurrency`
 * requests in flight back to back. Paced: an open loop that starts batch i at i × (its events ÷
 * the rate), whatever is still in flight, so latency is measured at a given load, not at capacity.
 */
async function drive(
  apps: BenchApp[],
  batches: Batch[],
  secrets: Map<string, string>,
  concurrency: number,
  paceEventsPerSec?: number,
): Promise<RunResult> {
  const hooks = new Map([...secrets].map(([k, v]) => [k, new Webhook(v)]));
  const lat: number[] = [];
  let accepted = 0;
  let failures = 0;
  let firstError = '';
  const cpu0 = apps.map((a) => a.cpuSeconds());
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  async function send(i: number) {
    const b = batches[i];
    const app = apps[i % apps.length];
    const msgId = `msg_${randomUUID()}`;
    const ts = new Date();
    const signature = hooks.get(b.server)!.sign(msgId, ts, b.payload);
    const t = performance.now();
    const res = await fetch(`${app.url}/api/v1/ingest/${b.server}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': msgId,
        'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: b.payload,
    });
    const text = await res.text();
    lat.push(performance.now() - t);
    if (res.status !== 200) {
      failures++;
      firstError ||= `${res.status} ${text.slice(0, 300)}`;
    } else accepted += (JSON.parse(text) as { accepted: number }).accepted;
  }
  if (paceEventsPerSec === undefined) {
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < batches.length; i = next++) await send(i);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  } else {
    const inFlight: Promise<void>[] = [];
    let due = 0;
    for (let i = 0; i < batches.length; i++) {
      const wait = t0 + due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(send(i));
      due += (batches[i].events.length / paceEventsPerSec) * 1000;
    }
    await Promise.all(inFlight);
  }
  const seconds = (performance.now() - t0) / 1000;
  if (firstError) log(`first failure: ${firstError}`);
  const events = batches.reduce((s, b) => s + b.events.length, 0);
  return {
    events,
    accepted,
    requests: batches.length,
    failures,
    seconds: round(seconds, 2),
    eventsPerSec: Math.round(accepted / seconds),
    ...(paceEventsPerSec === undefined ? {} : { pacedEventsPerSec: Math.round(paceEventsPerSec) }),
    requestMs: latencySummary(lat),
    peakRssMb: apps.map((a) => round(a.peakRssKb() / 1024)),
    memory: apps.map((a) => a.memory()),
    appCpuCores: apps.map((a, i) => round((a.cpuSeconds() - cpu0[i]) / seconds, 2)),
    loaderCpuCores: round((process.cpuUsage(self0).user + process.cpuUsage(self0).system) / 1e6 / seconds, 2),
  };
}

const toRow = (server: string, e: BenchEvent, receivedAt: number) =>
  [server, e.id, e.token, e.type, Date.parse(e.at), null, JSON.stringify(e.data ?? {}), receivedAt] as const;

/** better-sqlite3: one prepared INSERT, every row in one transaction, into a freshly migrated DB. */
async function rawSqlite(batches: Batch[]): Promise<{ rows: number; seconds: number; rowsPerSec: number }> {
  const tmp = tempSqliteUrl();
  try {
    await prepareDatabase(tmp.url);
    const db = new Database(tmp.file);
    db.pragma('journal_mode = WAL');
    const stmt = db.prepare(
      `INSERT INTO "Event" ("server","eventId","token","type","at","seq","data","receivedAt") VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
    );
    const now = Date.now();
    const t = performance.now();
    let rows = 0;
    db.transaction(() => {
      for (const b of batches) for (const e of b.events) rows += stmt.run(...toRow(b.server, e, now)).changes;
    })();
    const seconds = (performance.now() - t) / 1000;
    db.close();
    return { rows, seconds: round(seconds, 2), rowsPerSec: Math.round(rows / seconds) };
  } finally {
    cleanupSqlite(tmp.dir);
  }
}

/** COPY's text format: tab-separated, \N for null, backslash escapes for the specials. */
function copyField(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  return String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** pg: COPY FROM STDIN of every row in one transaction (the fastest bulk path PostgreSQL has). */
async function rawPg(batches: Batch[]): Promise<{ rows: number; seconds: number; rowsPerSec: number; method: string }> {
  const name = `dw_bench_raw_${process.pid}`;
  const url = await createPgDatabase(name);
  try {
    await prepareDatabase(url);
    const c = new Client({ connectionString: url });
    await c.connect();
    const all = batches.flatMap((b) => b.events.map((e) => toRow(b.server, e, Date.now())));
    const t = performance.now();
    await c.query('BEGIN');
    const copy = c.query(copyFrom('COPY "Event" ("server","eventId","token","type","at","seq","data","receivedAt") FROM STDIN'));
    await pipeline(
      Readable.from(
        (function* () {
          for (const r of all) yield `${r.map(copyField).join('\t')}\n`;
        })(),
      ),
      copy,
    );
    await c.query('COMMIT');
    const seconds = (performance.now() - t) / 1000;
    const rows = copy.rowCount;
    await c.end();
    return { rows, seconds: round(seconds, 2), rowsPerSec: Math.round(rows / seconds), method: 'COPY FROM STDIN, one transaction' };
  } finally {
    await dropPgDatabase(name);
  }
}

/** Latency at half the rate just measured at saturation: new events (half as many), paced open loop. */
function halfRate(
  apps: BenchApp[],
  saturated: RunResult,
  total: number,
  servers: number,
  batchSize: number,
  prefix: string,
  secrets: Map<string, string>,
): Promise<RunResult> {
  return drive(apps, makeBatches(Math.ceil(total / 2), servers, batchSize, `h${prefix}`), secrets, 0, saturated.eventsPerSec / 2);
}

export async function benchIngest(args: Args) {
  const total = num(args, 'events', 100_000);
  const servers = num(args, 'servers', 8);
  const batchSize = num(args, 'batch', 500);
  const concurrency = num(args, 'concurrency', 4);
  const only = (args.flags.get('targets') ?? 'sqlite,postgresql,postgresql-x2').split(',');
  const cpuProf = args.flags.get('cpu-prof'); // directory: profile the next process(es)
  const secrets = new Map(Array.from({ length: servers }, (_, i) => [serverName(i), generateSecret()] as const));
  const serverList = [...secrets].map(([name, secret]) => ({ name, secret }));
  const nodeArgs = cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [];
  // Extra node flags for the app (memory experiments), e.g. --node-options=--max-semi-space-size=4
  if (args.flags.has('node-options')) nodeArgs.push(...args.flags.get('node-options')!.split(' ').filter(Boolean));
  const launch = launchMode(args, 'npm-start');
  await appDir();
  const result: Record<string, unknown> = {
    part: 'ingest',
    machine: machine(),
    build: buildInfo(),
    events: total,
    batchSize,
    concurrency,
    servers,
    launch,
    nodeArgs,
  };
  const targets: Record<string, unknown> = {};

  for (const target of only) {
    const prefix = `${target.slice(0, 2)}${Date.now().toString(36)}-`;
    const batches = makeBatches(total, servers, batchSize, prefix);
    const loadBefore = machine().loadavg;
    log(`ingest ${target}: ${batches.length} batches of ≤${batchSize}, ${concurrency} in flight (load ${loadBefore.join(' ')})`);
    if (target === 'sqlite') {
      const tmp = tempSqliteUrl();
      try {
        await prepareDatabase(tmp.url, serverList);
        const app = await startApp(tmp.url, {}, nodeArgs, launch);
        let run: RunResult;
        let half: RunResult;
        try {
          // Warm-up: compile routes and fill the secret cache (its events are counted apart).
          await drive([app], makeBatches(servers * 20, servers, 20, `w${prefix}`), secrets, 2);
          run = await drive([app], batches, secrets, concurrency);
          half = await halfRate([app], run, total, servers, batchSize, prefix, secrets);
        } finally {
          await app.stop();
        }
        const raw = await rawSqlite(batches);
        targets.sqlite = {
          loadavg: loadBefore,
          app: run,
          halfRate: half,
          raw: { method: 'better-sqlite3 prepared INSERT, one transaction, WAL', ...raw },
          ratio: round(run.eventsPerSec / raw.rowsPerSec, 3),
        };
      } finally {
        cleanupSqlite(tmp.dir);
      }
    } else {
      const instances = target === 'postgresql-x2' ? 2 : 1;
      const name = `dw_bench_ingest_${instances}_${process.pid}`;
      const url = await createPgDatabase(name);
      try {
        await prepareDatabase(url, serverList);
        const apps: BenchApp[] = [];
        let run: RunResult;
        let half: RunResult;
        try {
          for (let i = 0; i < instances; i++) apps.push(await startApp(url, {}, nodeArgs, launch));
          await drive(apps, makeBatches(servers * 20, servers, 20, `w${prefix}`), secrets, 2);
          run = await drive(apps, batches, secrets, concurrency * instances);
          half = await halfRate(apps, run, total, servers, batchSize, prefix, secrets);
        } finally {
          for (const a of apps) await a.stop();
        }
        const raw = await rawPg(batches);
        targets[target] = {
          loadavg: loadBefore,
          instances,
          concurrency: concurrency * instances,
          app: run,
          halfRate: half,
          raw,
          ratio: round(run.eventsPerSec / raw.rowsPerSec, 3),
        };
      } finally {
        await dropPgDatabase(name);
      }
    }
    log(`ingest ${target}: ${JSON.stringify(targets[target])}`);
  }
  result.targets = targets;
  result.loadavgAfter = machine().loadavg;
  return result;
}
