// npm run soak -- [--minutes 30] [--database sqlite|postgresql] [--rate N | --max-rate N] [--watchers 200]
//   [--dashboards 4] [--seed-events N [--statistics]] [--json]
// Issue 28's soak on the production build: a fresh database (SQLite in a temp folder; PostgreSQL: a scratch
// database on BENCH_PG_URL, default postgresql://postgres@127.0.0.1:5432/postgres), the maximum ingest rate
// measured unless given, then half of it for N minutes with dashboards polling and SSE clients on the change
// stream. Prints a summary (progress on stderr) or, with --json, the whole result; exits 1 when a check failed:
// a 5xx other than 503, a watcher dropped, a total that differs from what was acknowledged, or a p95 window
// more than 20 % above the first. --seed-events N first stores N events (a fifth as many sessions, over the
// three days before the last two hours: nothing the soak's checks read; on SQLite without the statistics
// a running app never gathers, unless --statistics: a file someone ran ANALYZE on) so the run starts at a steady
// state's index sizes rather than an empty file's. Figures: docs/reliability.md#soak.
import { writeFileSync } from 'node:fs';
import { cleanupSqlite, createPgDatabase, dropPgDatabase, num, parseArgs, tempSqliteUrl } from '../bench/common';
import { seed } from '../bench/seed';
import { runSoak } from './soak';
import { soakSummary, soakVerdicts } from './summary';

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const database = args.flags.get('database') ?? 'sqlite';
  if (database !== 'sqlite' && database !== 'postgresql') throw new Error('--database must be sqlite or postgresql');
  const opt = (name: string) => (args.flags.has(name) ? num(args, name, 1) : undefined);
  const sqlite = database === 'sqlite' ? tempSqliteUrl() : null;
  const pgName = `dw_bench_soak_${process.pid}`;
  const databaseUrl = sqlite ? sqlite.url : await createPgDatabase(pgName);
  // Ctrl+C ends the load early; the app is still stopped and the database removed.
  const interrupted = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => interrupted.abort());
  try {
    const seededEvents = num(args, 'seed-events', 0);
    if (seededEvents > 0) {
      const t = performance.now();
      const now = Date.now();
      const seeded = await seed({
        databaseUrl,
        events: seededEvents,
        sessions: Math.ceil(seededEvents / 5),
        servers: 8,
        statistics: args.flags.has('statistics'),
        window: { fromMs: now - 74 * 3_600_000, toMs: now - 2 * 3_600_000 },
      });
      process.stderr.write(
        `[soak] seeded ${seeded.events} events, ${seeded.sessions} sessions in ${Math.round((performance.now() - t) / 1000)} s\n`,
      );
    }
    const result = await runSoak({
      seededEvents,
      signal: interrupted.signal,
      databaseUrl,
      minutes: num(args, 'minutes', 30),
      rate: opt('rate'),
      maxRate: opt('max-rate'),
      watchers: opt('watchers'),
      dashboards: opt('dashboards'),
      log: (l) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${l}\n`),
    });
    if (args.flags.has('out')) writeFileSync(args.flags.get('out')!, JSON.stringify(result, null, 2));
    process.stdout.write(`${args.json ? JSON.stringify(result) : soakSummary(result)}\n`);
    const verdicts = soakVerdicts(result);
    for (const v of verdicts) process.stderr.write(`FAILED: ${v}\n`);
    process.exitCode = verdicts.length ? 1 : 0;
  } finally {
    if (sqlite) cleanupSqlite(sqlite.dir);
    else await dropPgDatabase(pgName);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
