// Where the overview's time goes, in process (no HTTP): times computeStats for the last 24 h and
// each of its reads alone, on a seeded database (npm run bench:seed). Medians of --runs runs.
//   npx tsx scripts/bench/overview-profile.ts --database-url file:/abs/x.db [--runs 20]
import { readDatabaseConfig } from '@/lib/config/database-url';
import { openDb } from '@/lib/db/client';
import { computeStats } from '@/lib/queries/stats';
import { resumptionCounts } from '@/lib/store/resumption-counts';
import { QUARTER_MS, histogramSums, rollupBucketSums } from '@/lib/store/rollups';
import { ROLLUP_COLUMNS } from '@/lib/metrics/rollup-contributions';
import { TABLE_SQL } from '@/lib/store/tables';
import { countDeadLetters } from '@/lib/store/dead-letters';
import { countRejections } from '@/lib/store/ingest-rejections';
import { parseArgs, num } from './common';

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const url = args.flags.get('database-url');
  if (!url) throw new Error('--database-url is required');
  const runs = num(args, 'runs', 20);
  const db = openDb(readDatabaseConfig({ DATABASE_URL: url }));
  const now = Date.now();
  const toMs = Math.floor(now / 60_000) * 60_000;
  const fromMs = toMs - 86_400_000;
  const range = { fromMs, toMs, fromInput: 'now-24h', toInput: 'now' };
  const scope = { fromMs, toMs, bucketMs: 900_000, server: null, byServer: false };
  const parts: Record<string, () => Promise<unknown>> = {
    overview: () => computeStats(db, { range, bucketMs: 900_000, server: null, nowMs: now, thresholdMs: 60_000, maxMs: 0 }),
    rollupCounters: () => rollupBucketSums(db.sql, scope, [...ROLLUP_COLUMNS]),
    histograms: () => histogramSums(db.sql, scope, ['refusal', 'renegotiation']),
    exactRefusal: () =>
      db.sql.query(
        `SELECT CAST("refusedAt" / 900000 AS BIGINT) AS "b", "refusalLatencyMs", COUNT(*) FROM ${TABLE_SQL.session}
          WHERE "synthetic" = 0 AND "refusedAt" >= ? AND "refusedAt" < ? AND "boundaryOutcome" = 'refused' AND "refusalLatencyMs" IS NOT NULL GROUP BY 1, 2`,
        [fromMs, toMs],
      ),
    resumption: () => resumptionCounts(db, { range: { fromMs, toMs } }),
    ongoingDeadlocks: () =>
      db.sql.query(
        `SELECT "server", COUNT(*) FROM ${TABLE_SQL.session}
          WHERE "synthetic" = 0 AND "deadlockStartedAt" >= ? AND "deadlockStartedAt" < ? AND "deadlockEndedAt" IS NULL GROUP BY 1`,
        [fromMs, toMs],
      ),
    deadLetters: () => countDeadLetters(db.sql, { server: null, fromMs, toMs }),
    rejections: () => countRejections(db.sql, { fromMs, toMs, server: null }),
  };
  const out: Record<string, number> = {};
  for (const [name, run] of Object.entries(parts)) {
    for (let i = 0; i < 3; i++) await run();
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await run();
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    out[name] = Math.round(ms[Math.floor(ms.length / 2)] * 10) / 10;
  }
  // How many histogram cells the percentile read goes through: all per-minute cells of the range (the
  // read before LatencyHistogramQuarter) vs whole quarters from the quarter table + edge minutes (now).
  const count = async (table: string, from: number, to: number) =>
    from >= to
      ? 0
      : Number(
          (await db.sql.query<{ n: unknown }>(`SELECT COUNT(*) AS "n" FROM ${table} WHERE "minute" >= ? AND "minute" < ?`, [from, to]))[0]
            .n,
        );
  const qFrom = Math.ceil(fromMs / QUARTER_MS) * QUARTER_MS;
  const qTo = Math.floor(toMs / QUARTER_MS) * QUARTER_MS;
  const cells = {
    minuteOnly: await count(TABLE_SQL.latencyHistogram, fromMs, toMs),
    quartersAndEdges:
      (await count(TABLE_SQL.latencyHistogram, fromMs, qFrom)) +
      (await count(TABLE_SQL.latencyHistogramQuarter, qFrom, qTo)) +
      (await count(TABLE_SQL.latencyHistogram, qTo, toMs)),
  };
  await db.close();
  console.log(
    JSON.stringify({
      url: url.replace(/\/\/[^@]*@/, '//'),
      loadavg: (await import('node:os')).loadavg().map((x) => Math.round(x * 10) / 10),
      medianMs: out,
      histogramCells: cells,
    }),
  );
}
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
