// The overview (computeStats for the last 24 h) timed in process, for side-by-side runs of two
// checkouts on the same seeded database (docs/benchmarks.md, round 4). Copy it into the other
// checkout's scripts/ and alternate:  npx tsx scripts/overview-ab.ts file:/abs/x.db [runs]
import { readDatabaseConfig } from '@/lib/config/database-url';
import { openDb } from '@/lib/db/client';
import { computeStats } from '@/lib/queries/stats';

async function main() {
  const [url, runsArg] = process.argv.slice(2);
  const runs = Number(runsArg ?? 20);
  const db = openDb(readDatabaseConfig({ DATABASE_URL: url }));
  const now = Date.now();
  const toMs = Math.ceil(now / 60_000) * 60_000;
  const q = {
    range: { fromMs: toMs - 86_400_000, toMs, fromInput: 'now-24h', toInput: 'now' },
    bucketMs: 900_000,
    server: null,
    nowMs: now,
    thresholdMs: 10_000,
    maxMs: 0,
  };
  let r = await computeStats(db, q);
  for (let i = 0; i < 2; i++) r = await computeStats(db, q);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    r = await computeStats(db, q);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const pick = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)] * 10) / 10;
  const method = (r as { percentiles?: unknown }).percentiles ?? 'exact (code before the histograms)';
  console.log(
    JSON.stringify({
      p50: pick(50),
      p95: pick(95),
      refused: r.refused,
      sessions: r.sessions,
      refusalP95: r.refusalLatencyMs.p95,
      renegP95: r.renegotiations.latencyMs.p95,
      percentiles: method,
    }),
  );
  await db.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
