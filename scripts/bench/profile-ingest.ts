// Where ingest time goes, without HTTP: calls lib/ingest's ingestEvents directly on a fresh
// SQLite (or PostgreSQL) database with the same 500-event batches, times them, and (run under
// `node --cpu-prof`) summarizes the profile by package and function. With --check it also
// proves the seeder consistent: the same fleet seeded in bulk and ingested through
// ingestEvents must give identical Session rows (but updatedAt) and Rollup rows.
//   npx tsx scripts/bench/profile-ingest.ts [--events 50000] [--database-url ...] [--check]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx scripts/bench/profile-ingest.ts
import Database from 'better-sqlite3';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import type { Db } from '@/lib/db/client';
import type { Sql, SqlExecutor } from '@/lib/db/sql';

/** Wraps db.sql so every statement inside ingest is timed by kind (the rest is JS work). */
function timedDb(db: Db, stats: Map<string, { n: number; ms: number }>): Db {
  const kind = (text: string) => {
    const t = text.replace(/\s+/g, ' ').trim();
    // PostgreSQL's three statements (lib/store/ingest-statements.ts), named by step.
    if (t.includes('pg_advisory_xact_lock')) return '1 begin: locks (+ dead letters, reporter, probe tokens)';
    if (t.startsWith('WITH "v"')) return '2 insertAndLoad: INSERT Event + every read';
    if (t.includes('INSERT INTO "Session"') || t.includes('pg_notify')) return '3 finish: Session, rollups, NOTIFY';
    const m = /^(INSERT INTO|SELECT .*? FROM|SELECT \* FROM) "(\w+)"/.exec(t);
    return m ? `${m[1].startsWith('INSERT') ? 'INSERT' : 'SELECT'} ${m[2]}` : t.slice(0, 30);
  };
  const wrap = (ex: SqlExecutor): SqlExecutor =>
    ({
      provider: ex.provider,
      async query(text, params) {
        const t = performance.now();
        try {
          return await ex.query(text, params);
        } finally {
          add(kind(text), performance.now() - t);
        }
      },
      async execute(text, params) {
        const t = performance.now();
        try {
          return await ex.execute(text, params);
        } finally {
          add(kind(text), performance.now() - t);
        }
      },
      async insertMany(table, columns, rows, tail) {
        const t = performance.now();
        try {
          return await ex.insertMany(table, columns, rows, tail);
        } finally {
          add(`INSERT ${table}`, performance.now() - t);
        }
      },
    }) as SqlExecutor;
  const add = (k: string, ms: number) => {
    const s = stats.get(k) ?? { n: 0, ms: 0 };
    s.n++;
    s.ms += ms;
    stats.set(k, s);
  };
  const sql: Sql = { ...wrap(db.sql), transaction: (fn) => db.sql.transaction((tx) => fn(wrap(tx))) } as Sql;
  return { ...db, sql };
}
import { generateFleet, serverName, type BenchEvent } from './fleet';
import { seed } from './seed';
import { cleanupSqlite, num, parseArgs, prepareDatabase, round, tempSqliteUrl, latencySummary } from './common';

function fleetBatches(events: number, servers: number, now: number, prefix: string) {
  const byServer = new Map<string, BenchEvent[]>();
  for (const s of generateFleet({ events, servers, fromMs: now - 30 * 60_000, toMs: now - 60_000, prefix, seed: 11 })) {
    const list = byServer.get(s.server);
    if (list) for (const e of s.events) list.push(e);
    else byServer.set(s.server, [...s.events]);
  }
  const out: { server: string; events: BenchEvent[] }[] = [];
  for (const [server, list] of byServer) for (let i = 0; i < list.length; i += 500) out.push({ server, events: list.slice(i, i + 500) });
  return out;
}

export function summarizeProfile(dir: string) {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (!file) return null;
  const prof = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  };
  const total = prof.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const byPkg = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const n of prof.nodes) {
    const h = n.hitCount ?? 0;
    if (!h) continue;
    const url = n.callFrame.url;
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      (url.includes('/lib/')
        ? `app ${url.slice(url.indexOf('/lib/') + 1)}`
        : url
          ? url.replace(/^.*\//, '')
          : `(${n.callFrame.functionName || 'native'})`);
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + h);
    const fn = `${n.callFrame.functionName || '(anon)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/main\//, '')}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + h);
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, h]) => ({ name, pct: round((100 * h) / total, 1) }));
  return { file, byPackage: top(byPkg, 15), byFunction: top(byFn, 25) };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const events = num(args, 'events', 50_000);
  const servers = 8;
  const now = Date.now();
  const prefix = `pf${now.toString(36)}-`;
  const tmp = tempSqliteUrl();
  const url = args.flags.get('database-url') ?? tmp.url;
  try {
    await prepareDatabase(
      url,
      Array.from({ length: servers }, (_, i) => ({ name: serverName(i), secret: `whsec_${Buffer.alloc(32, i + 1).toString('base64')}` })),
    );
    const raw = openDb(readDatabaseConfig({ DATABASE_URL: url }));
    const stmtStats = new Map<string, { n: number; ms: number }>();
    const db = timedDb(raw, stmtStats);
    if (raw.config.provider === 'sqlite') await raw.sql.execute('PRAGMA journal_mode = WAL');
    const batches = fleetBatches(events, servers, now, prefix);
    const lat: number[] = [];
    const t0 = performance.now();
    let accepted = 0;
    for (const b of batches) {
      const t = performance.now();
      const r = await ingestEvents(db, b.server, b.events, { now });
      lat.push(performance.now() - t);
      accepted += r.accepted;
    }
    const seconds = (performance.now() - t0) / 1000;
    await raw.close();
    const sqlMs = [...stmtStats.values()].reduce((s, x) => s + x.ms, 0);
    const result: Record<string, unknown> = {
      part: 'profile-ingest',
      provider: db.config.provider,
      accepted,
      seconds: round(seconds, 2),
      eventsPerSec: Math.round(accepted / seconds),
      batchMs: latencySummary(lat),
      // Time inside statement calls (driver adapter + Prisma + database) vs everything else (validation, summarize, JS).
      statementsPct: round((100 * sqlMs) / (seconds * 1000), 1),
      perBatch: Object.fromEntries(
        [...stmtStats]
          .sort((a, b) => b[1].ms - a[1].ms)
          .map(([k, v]) => [
            k,
            {
              statements: round(v.n / batches.length, 1),
              ms: round(v.ms / batches.length, 2),
              pctOfTotal: round((100 * v.ms) / (seconds * 1000), 1),
            },
          ]),
      ),
    };
    if (args.flags.has('check') && db.config.provider === 'sqlite') {
      const tmp2 = tempSqliteUrl();
      try {
        // generateFleet with the same options (servers, events, seed, span) yields the same sessions.
        await seed({ databaseUrl: tmp2.url, events, servers, now, prefix, window: { fromMs: now - 30 * 60_000, toMs: now - 60_000 } });
        result.consistency = compare(tmp.file, tmp2.file);
      } finally {
        cleanupSqlite(tmp2.dir);
      }
    }
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    cleanupSqlite(tmp.dir);
  }
}

function compare(ingested: string, seeded: string) {
  const a = new Database(ingested, { readonly: true });
  a.exec(`ATTACH '${seeded}' AS s`);
  // The seeder stores no fold (a row without one has its fold redone from the timeline by the next batch).
  const cols = (
    a.prepare(`SELECT name FROM pragma_table_info('Session') WHERE name NOT IN ('updatedAt', 'foldState')`).all() as { name: string }[]
  )
    .map((r) => `"${r.name}"`)
    .join(',');
  const rcols = (a.prepare(`SELECT name FROM pragma_table_info('Rollup')`).all() as { name: string }[]).map((r) => `"${r.name}"`).join(',');
  const count = (q: string) => (a.prepare(q).get() as { n: number }).n;
  const out = {
    sessions: count(`SELECT COUNT(*) n FROM main."Session"`),
    sessionsDiffering:
      count(`SELECT COUNT(*) n FROM (SELECT ${cols} FROM main."Session" EXCEPT SELECT ${cols} FROM s."Session")`) +
      count(`SELECT COUNT(*) n FROM (SELECT ${cols} FROM s."Session" EXCEPT SELECT ${cols} FROM main."Session")`),
    rollupCells: count(`SELECT COUNT(*) n FROM main."Rollup"`),
    rollupDiffering:
      count(`SELECT COUNT(*) n FROM (SELECT ${rcols} FROM main."Rollup" EXCEPT SELECT ${rcols} FROM s."Rollup")`) +
      count(`SELECT COUNT(*) n FROM (SELECT ${rcols} FROM s."Rollup" EXCEPT SELECT ${rcols} FROM main."Rollup")`),
    events: count(`SELECT COUNT(*) n FROM main."Event"`),
    eventsDiffering: count(
      `SELECT COUNT(*) n FROM (SELECT "server","eventId","token","type","at","data" FROM main."Event" EXCEPT SELECT "server","eventId","token","type","at","data" FROM s."Event")`,
    ),
  };
  a.close();
  return out;
}

if (process.argv[1]?.endsWith('profile-ingest.ts')) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
