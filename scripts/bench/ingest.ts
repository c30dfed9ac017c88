// Ingest benchmark: signed batches of 500 realistic events over loopback HTTP, a few in
// flight, against SQLite, PostgreSQL and two app instances sharing one PostgreSQL database.
// In the same run, the raw driver inserts the same Event rows (better-sqlite3 prepared
// statement in one transaction; pg COPY FROM STDIN) so the app's rate is reported as a ratio of
// what the driver can do.
import Database from 'better-sqlite3';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { generateSecret } from '@/lib/contract/server-secret';
import { serverName, type BenchEvent } from './fleet';
import { drive, makeBatches, type Batch, type BatchOrder, type RunResult } from './ingest-driver';
import {
  cleanupSqlite,
  createPgDatabase,
  dropPgDatabase,
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
} from './common';
import { benchLongSession } from './long-session';

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
  order: BatchOrder,
): Promise<RunResult> {
  return drive(apps, makeBatches(Math.ceil(total / 2), servers, batchSize, `h${prefix}`, order), secrets, 0, saturated.eventsPerSec / 2);
}

export async function benchIngest(args: Args) {
  const total = num(args, 'events', 100_000);
  const servers = num(args, 'servers', 8);
  const batchSize = num(args, 'batch', 500);
  const concurrency = num(args, 'concurrency', 4);
  const only = (args.flags.get('targets') ?? 'sqlite,postgresql,postgresql-x2').split(',');
  const cpuProf = args.flags.get('cpu-prof'); // directory: profile the next process(es)
  const order = (args.flags.get('order') ?? 'session') as BatchOrder;
  if (order !== 'session' && order !== 'time') throw new Error(`--order must be session or time, not ${String(order)}`);
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
    order,
  };
  const targets: Record<string, unknown> = {};

  for (const target of only) {
    const prefix = `${target.slice(0, 2)}${Date.now().toString(36)}-`;
    const batches = makeBatches(total, servers, batchSize, prefix, order);
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
          half = await halfRate([app], run, total, servers, batchSize, prefix, secrets, order);
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
          half = await halfRate(apps, run, total, servers, batchSize, prefix, secrets, order);
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
  // Issue 26's long-session bound, on the same build in the same run (--long-events 0 skips it).
  if (num(args, 'long-events', 50_000, { allowZero: true }) > 0) result.longSession = await benchLongSession(args);
  result.loadavgAfter = machine().loadavg;
  return result;
}
