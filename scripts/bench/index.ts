// npm run bench [-- --json] [--parts ingest,seed,query] — every part in turn; one JSON object
// per part on stdout with --json (progress goes to stderr). Each part also runs alone:
//   npm run bench:ingest -- [--events 100000] [--concurrency 4] [--targets sqlite,postgresql,postgresql-x2] [--cpu-prof DIR]
//     [--long-events 50000] [--long-batches 100] (one long session against as many short-session events; 0 skips it)
//     [--launch npm-start|tsx-start|next-start] (default npm-start: RSS and CPU of everything `npm start` runs)
//     [--node-options='--max-semi-space-size=4'] (node flags for the app)
//     [--order session|time] (batches of whole sessions, the default, or each server's events in time order)
//   npm run bench:seed -- --events 1000000 [--sessions 100000] --database-url file:/tmp/x.db|postgresql://...
//   npm run bench:query -- [--sizes 1000000,10000000] [--providers sqlite,postgresql] [--requests 50] [--warmup 3]
//   npm run bench -- prune [--events 1000000]   (PostgreSQL: retention before/after daily partitions; not in the default parts)
//   npm run bench -- partition-ingest [--events 100000] [--preload 200000]   (PostgreSQL: write path, one table vs partitions)
//   npm run bench -- session-upsert [--rows 20000] [--preload 200000] [--batch 92]   (SQLite: Session's indexes per row, before/after their partial forms)
//   npm run bench:ui -- [--runs 7] [--events 5] [--watch 30] (not in the default parts: it needs Chromium)
//   npm run bench -- slow-clients [--slow 500] [--rate 500] [--rounds 4] [--phase-seconds 30]   (ingest p95 with and without slow connections)
//   npm run bench -- timestamp-parse [--events 100000] [--reads 3] [--rounds 10]   (the contract's timestamp parse, before and now)
import { parseArgs, tempSqliteUrl, cleanupSqlite, type Args } from './common';
import { benchIngest } from './ingest';
import { benchPartitionIngest } from './partition-ingest';
import { benchPrune } from './prune';
import { benchQuery } from './query';
import { benchSeed } from './seed';
import { benchSessionUpsert } from './session-upsert';
import { benchSlowClients } from './slow-clients';
import { benchTimestampParse } from './timestamp-parse';
import { benchUi } from './ui';

const PARTS: Record<string, (a: Args) => Promise<unknown>> = {
  ingest: benchIngest,
  seed: async (a) => {
    if (a.flags.has('database-url')) return benchSeed(a);
    // As part of the suite: seed a scratch SQLite file and remove it.
    const tmp = tempSqliteUrl();
    try {
      const flags = new Map(a.flags);
      flags.set('database-url', tmp.url);
      if (!flags.has('events')) flags.set('events', '1000000');
      if (!flags.has('sessions')) flags.set('sessions', String(Math.round(Number(flags.get('events')) / 10)));
      return await benchSeed({ ...a, flags });
    } finally {
      cleanupSqlite(tmp.dir);
    }
  },
  query: benchQuery,
  prune: benchPrune,
  'partition-ingest': benchPartitionIngest,
  'session-upsert': benchSessionUpsert,
  ui: benchUi,
  'slow-clients': benchSlowClients,
  'timestamp-parse': benchTimestampParse,
};

async function main() {
  const argv = process.argv.slice(2);
  const only = argv[0] && !argv[0].startsWith('--') ? [argv.shift()!] : null;
  const args = parseArgs(argv);
  const parts = only ?? (args.flags.get('parts') ?? 'ingest,seed,query').split(',');
  for (const p of parts) {
    const run = PARTS[p];
    if (!run)
      throw new Error(
        `unknown part ${p} (ingest, seed, query, ui, prune, partition-ingest, session-upsert, slow-clients, timestamp-parse)`,
      );
    const result = await run(args);
    process.stdout.write(`${JSON.stringify(result, null, args.json ? 0 : 2)}\n`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
