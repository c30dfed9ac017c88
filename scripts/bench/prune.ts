// npm run bench -- prune [--events 1000000] [--json]: retention pruning one day of raw events on
// the local PostgreSQL, before and after daily partitioning (migration 20261201030000), side by
// side in one run. "before": a database migrated up to the migration before it, so "Event" is one
// table and pruning is the batched DELETE (DOORWATCH_RETENTION_BATCH rows each, no pause);
// "after": the partitioned schema, where the same day is one dropped partition. Both hold the
// same seeded fleet (the day 40 days back, retention 30 days, every session ended).
import { openDb } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { DEFAULT_PRUNE_BATCH } from '@/lib/config/settings';
import { pruneEvents } from '@/lib/retention/prune-events';
import { DAY_MS, dayStart, ensureDailyPartitions } from '@/lib/store/partitions';
import {
  createPgDatabase,
  dropPgDatabase,
  log,
  machine,
  migrationsRootBefore,
  num,
  prepareDatabase,
  round,
  ROOT,
  type Args,
} from './common';
import { seed } from './seed';

const PARTITION_MIGRATION = '20261201030000_partition_events';

interface PruneFigures {
  schema: 'one table (batched DELETE)' | 'daily partitions (DETACH + DROP)';
  seconds: number;
  deleted: number;
  batches: number;
  partitionsDropped: number;
  eventsLeft: number;
}

async function measure(variant: 'before' | 'after', events: number, now: number): Promise<PruneFigures> {
  const name = `dw_bench_prune_${variant}_${process.pid}`;
  const url = await createPgDatabase(name);
  const root = variant === 'before' ? migrationsRootBefore(PARTITION_MIGRATION) : ROOT;
  try {
    const day = dayStart(now - 40 * DAY_MS);
    await prepareDatabase(url, [], root);
    const db = openDb(readDatabaseConfig({ DATABASE_URL: url }));
    try {
      if (variant === 'after') await ensureDailyPartitions(db.sql, 'event', day, day);
      log(`prune ${variant}: seeding ${events} events into ${new Date(day).toISOString().slice(0, 10)}`);
      await seed({
        databaseUrl: url,
        events,
        sessions: Math.round(events / 10),
        now,
        window: { fromMs: day + 60_000, toMs: day + DAY_MS - 3_600_000 },
        migrationsRoot: root,
      });
      await db.sql.execute('CHECKPOINT');
      log(`prune ${variant}: pruning (load ${machine().loadavg.join(' ')})`);
      const t0 = performance.now();
      const r = await pruneEvents(db.sql, { days: 30, batchSize: DEFAULT_PRUNE_BATCH, pauseMs: 0, now });
      const seconds = (performance.now() - t0) / 1000;
      const [{ n }] = await db.sql.query<{ n: number }>('SELECT COUNT(*) AS "n" FROM "Event"');
      log(`prune ${variant}: ${r.deleted} events in ${round(seconds, 2)} s`);
      return {
        schema: variant === 'before' ? 'one table (batched DELETE)' : 'daily partitions (DETACH + DROP)',
        seconds: round(seconds, 3),
        deleted: r.deleted,
        batches: r.batches,
        partitionsDropped: r.partitionsDropped,
        eventsLeft: Number(n),
      };
    } finally {
      await db.close();
    }
  } finally {
    await dropPgDatabase(name);
  }
}

export async function benchPrune(args: Args) {
  const events = num(args, 'events', 1_000_000);
  const now = Date.now();
  const loadBefore = machine().loadavg;
  const before = await measure('before', events, now);
  const after = await measure('after', events, now);
  return {
    part: 'prune',
    provider: 'postgresql',
    events,
    before,
    after,
    speedup: round(before.seconds / after.seconds, 0),
    machine: { ...machine(), loadavgAtStart: loadBefore },
  };
}
