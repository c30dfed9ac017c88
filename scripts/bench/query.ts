// Query benchmark: seed 1M / 10M events (100k / 1M sessions), start the built app on the
// database, and time the dashboard's reads through HTTP: overview stats + series for the last
// 24 h, the server list (verdicts and totals), the session list filtered by a flag (first page
// and a cursor page), one session's detail, and the token search (a whole token, and a prefix).
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { seed, type SeedResult } from './seed';
import {
  ADMIN_TOKEN,
  cleanupSqlite,
  createPgDatabase,
  dropPgDatabase,
  latencySummary,
  log,
  machine,
  num,
  round,
  startApp,
  tempSqliteUrl,
  buildInfo,
  appDir,
  type Args,
} from './common';

async function sampleSessions(databaseUrl: string, n: number): Promise<{ server: string; token: string }[]> {
  const config = readDatabaseConfig({ DATABASE_URL: databaseUrl });
  const sql = `SELECT "server","token" FROM "Session" WHERE rowid % 997 = 0 LIMIT ${n}`;
  if (config.provider === 'sqlite') {
    const db = new Database(config.sqliteFile!, { readonly: true });
    try {
      return db.prepare(sql).all() as { server: string; token: string }[];
    } finally {
      db.close();
    }
  }
  const c = new Client({ connectionString: config.url });
  await c.connect();
  try {
    return (await c.query(`SELECT "server","token" FROM "Session" TABLESAMPLE SYSTEM (1) LIMIT ${n}`)).rows;
  } finally {
    await c.end();
  }
}

async function timeGet(url: string): Promise<{ ms: number; status: number; body: any }> {
  const t = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const text = await res.text();
  const ms = performance.now() - t;
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { ms, status: res.status, body };
}

async function measure(name: string, urls: () => string, n: number, warmup: number) {
  // Warm-up: the route's first requests compile it and JIT its code (see --warmup in benchQuery).
  for (let i = 0; i < warmup; i++) await timeGet(urls());
  const ms: number[] = [];
  let failures = 0;
  let sample: any = null;
  for (let i = 0; i < n; i++) {
    const r = await timeGet(urls());
    if (r.status !== 200) failures++;
    sample ??= r.body;
    ms.push(r.ms);
  }
  if (failures) log(`${name}: ${failures} non-200, e.g. ${JSON.stringify(sample).slice(0, 300)}`);
  return { ...latencySummary(ms), failures };
}

export async function queryAt(databaseUrl: string, requests: number, seeded: SeedResult | null, warmup = 3) {
  const tokens = await sampleSessions(databaseUrl, 200);
  const app = await startApp(databaseUrl);
  try {
    let i = 0;
    const loadavg = machine().loadavg;
    const stats = await measure('stats', () => `${app.url}/api/v1/stats?from=now-24h`, requests, warmup);
    const statsProbe = (await timeGet(`${app.url}/api/v1/stats?from=now-24h`)).body;
    // The server list: the overview's status strip and the Servers page load it with the stats.
    const servers = await measure('servers', () => `${app.url}/api/v1/servers?from=now-24h`, requests, warmup);
    const list = await measure('list', () => `${app.url}/api/v1/sessions?flag=refused&limit=50`, requests, warmup);
    // The overview's "Show stuck sessions": the deadlocks ongoing now, probe sessions left out.
    const stuck = await measure(
      'stuck list',
      () => `${app.url}/api/v1/sessions?deadlock=ongoing&synthetic=exclude&limit=50`,
      requests,
      warmup,
    );
    const first = (await timeGet(`${app.url}/api/v1/sessions?flag=naive_resume&limit=50`)).body;
    const cursor = first?.nextCursor ?? first?.cursor ?? null;
    const listPage2 = cursor
      ? await measure(
          'list page 2',
          () => `${app.url}/api/v1/sessions?flag=naive_resume&limit=50&cursor=${encodeURIComponent(cursor)}`,
          requests,
          warmup,
        )
      : null;
    const detail = await measure(
      'detail',
      () => {
        const s = tokens[i++ % tokens.length];
        return `${app.url}/api/v1/servers/${s.server}/sessions/${encodeURIComponent(s.token)}`;
      },
      requests,
      warmup,
    );
    // Token lookup (the `/` search and the sessions filter): a whole sampled token, then a prefix of one.
    const lookup = await measure(
      'token lookup',
      () => `${app.url}/api/v1/sessions?token=${encodeURIComponent(tokens[i++ % tokens.length].token)}&limit=50`,
      requests,
      warmup,
    );
    const prefix = await measure(
      'token prefix',
      () => {
        const t = tokens[i++ % tokens.length].token;
        return `${app.url}/api/v1/sessions?token=${encodeURIComponent(t.slice(0, Math.max(4, t.length - 3)))}&limit=50`;
      },
      requests,
      warmup,
    );
    return {
      loadavg,
      seeded,
      last24h: { events: statsProbe?.events, sessions: statsProbe?.sessions, refused: statsProbe?.refused, bucketMs: statsProbe?.bucketMs },
      statsMs: stats,
      serversMs: servers,
      listFlagRefusedMs: list,
      listStuckMs: stuck,
      listNaiveCursorPageMs: listPage2,
      detailMs: detail,
      tokenLookupMs: lookup,
      tokenPrefixMs: prefix,
      peakRssMb: round(app.peakRssKb() / 1024),
    };
  } finally {
    await app.stop();
  }
}

export async function benchQuery(args: Args) {
  const sizes = (args.flags.get('sizes') ?? '1000000').split(',').map((s) => Number(s.replace(/_/g, '')));
  const providers = (args.flags.get('providers') ?? 'sqlite').split(',');
  const requests = num(args, 'requests', 50);
  // Requests per endpoint before timing. 3 (the default, as in every figure before 2 Dec) leaves the
  // first timed requests of a fresh server still being optimised by V8 (30–100 ms instead of ~20 for
  // the overview), which is most of a p95 over 80; a dashboard that polls sees the warm figures.
  const warmup = num(args, 'warmup', 3);
  const keep = args.flags.get('keep') === 'true';
  await appDir();
  const out: Record<string, unknown> = { part: 'query', machine: machine(), build: buildInfo(), requests, warmup, runs: [] as unknown[] };
  // --database-urls a,b: measure databases seeded earlier (kept with --keep true) instead of seeding,
  // so two builds can be timed in turns on the same data (BENCH_APP_DIR picks the other build).
  const given = args.flags.get('database-urls');
  if (given) {
    for (const url of given.split(',')) {
      const r = await queryAt(url, requests, null, warmup);
      (out.runs as unknown[]).push({ provider: readDatabaseConfig({ DATABASE_URL: url }).provider, databaseUrl: url, ...r });
      log(`query ${url}: ${JSON.stringify(r)}`);
    }
    out.loadavgAfter = machine().loadavg;
    return out;
  }
  for (const provider of providers) {
    for (const events of sizes) {
      const sessions = Math.round(events / 10);
      log(`query ${provider} ${events} events: seeding (load ${machine().loadavg.join(' ')})`);
      if (provider === 'sqlite') {
        const tmp = tempSqliteUrl();
        try {
          const seeded = await seed({ databaseUrl: tmp.url, events, sessions });
          log(`seeded: ${JSON.stringify(seeded)}`);
          const r = await queryAt(tmp.url, requests, seeded, warmup);
          (out.runs as unknown[]).push({ provider, events, sessions, ...r });
          log(`query ${provider} ${events}: ${JSON.stringify(r)}`);
        } finally {
          if (keep) log(`kept ${tmp.url}`);
          else cleanupSqlite(tmp.dir);
        }
      } else {
        const name = `dw_bench_query_${events}_${process.pid}`;
        const url = await createPgDatabase(name);
        try {
          const seeded = await seed({ databaseUrl: url, events, sessions });
          log(`seeded: ${JSON.stringify(seeded)}`);
          const r = await queryAt(url, requests, seeded, warmup);
          (out.runs as unknown[]).push({ provider, events, sessions, ...r });
          log(`query ${provider} ${events}: ${JSON.stringify(r)}`);
        } finally {
          if (keep) log(`kept ${url}`);
          else await dropPgDatabase(name);
        }
      }
    }
  }
  out.loadavgAfter = machine().loadavg;
  return out;
}
