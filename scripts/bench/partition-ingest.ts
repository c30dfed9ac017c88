// npm run bench -- partition-ingest [--events 100000] [--preload 200000] [--json]: what daily
// partitioning costs the PostgreSQL write path. Two databases side by side, both preloaded with
// the same fleet over the last 30 days: "before" migrated up to the migration before
// 20261201030000 (one "Event" table), "after" partitioned with the 38 partitions a 30-day
// retention and 7 days ahead keep. The same 500-event batches then go through ingestEvents
// (storeBatch, no HTTP) into each, alternating blocks of 10 batches so load drifts hit both.
// Both run today's code, whose PostgreSQL insert keeps ids unique through "EventKey" on either
// schema; the difference is the cost of the partitioned tables (timeline reads touch every
// partition's index).
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { DAY_MS, ensureDailyPartitions } from '@/lib/store/partitions';
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
import { generateFleet } from './fleet';
import { seed } from './seed';

const PARTITION_MIGRATION = '20261201030000_partition_events';
const SERVERS = 4;

async function open(variant: 'before' | 'after', preload: number, now: number): Promise<{ db: Db; name: string }> {
  const name = `dw_bench_pingest_${variant}_${process.pid}`;
  const url = await createPgDatabase(name);
  const root = variant === 'before' ? migrationsRootBefore(PARTITION_MIGRATION) : ROOT;
  await prepareDatabase(url, [], root);
  const db = openDb(readDatabaseConfig({ DATABASE_URL: url }));
  if (variant === 'after') {
    await ensureDailyPartitions(db.sql, 'event', now - 30 * DAY_MS, now + 7 * DAY_MS);
    await ensureDailyPartitions(db.sql, 'deadLetter', now - 30 * DAY_MS, now + 7 * DAY_MS);
  }
  log(`partition-ingest ${variant}: preloading ${preload} events`);
  await seed({
    databaseUrl: url,
    events: preload,
    servers: SERVERS,
    now,
    prefix: 'pre-',
    window: { fromMs: now - 30 * DAY_MS, toMs: now - 3_600_000 },
    migrationsRoot: root,
  });
  return { db, name };
}

export async function benchPartitionIngest(args: Args) {
  const events = num(args, 'events', 100_000);
  const preload = num(args, 'preload', 200_000);
  const now = Date.now();
  const loadAtStart = machine().loadavg;
  const before = await open('before', preload, now);
  const after = await open('after', preload, now);
  try {
    const batches: { server: string; events: unknown[] }[] = [];
    const open: Record<string, unknown[]> = {};
    for (const s of generateFleet({ events, servers: SERVERS, fromMs: now - 3_000_000, toMs: now - 60_000, prefix: 'pi-', seed: 5 })) {
      const list = (open[s.server] ??= []);
      list.push(...s.events);
      if (list.length >= 500) batches.push({ server: s.server, events: list.splice(0, 500) });
    }
    for (const [server, list] of Object.entries(open)) if (list.length) batches.push({ server, events: list });
    const ms = { before: 0, after: 0 };
    const sent = { before: 0, after: 0 };
    for (let i = 0; i < batches.length; i += 10) {
      const block = batches.slice(i, i + 10);
      const order = (i / 10) % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const variant of order) {
        const { db } = variant === 'before' ? before : after;
        const t0 = performance.now();
        for (const b of block) sent[variant] += (await ingestEvents(db, b.server, b.events, { now })).accepted;
        ms[variant] += performance.now() - t0;
      }
    }
    const rate = (v: 'before' | 'after') => Math.round(sent[v] / (ms[v] / 1000));
    log(`partition-ingest: before ${rate('before')} ev/s, after ${rate('after')} ev/s`);
    return {
      part: 'partition-ingest',
      provider: 'postgresql',
      events,
      preload,
      batches: batches.length,
      before: { schema: 'one table', accepted: sent.before, seconds: round(ms.before / 1000, 2), eventsPerSec: rate('before') },
      after: {
        schema: '38 daily partitions + default',
        accepted: sent.after,
        seconds: round(ms.after / 1000, 2),
        eventsPerSec: rate('after'),
      },
      ratio: round(rate('after') / rate('before'), 3),
      machine: { ...machine(), loadavgAtStart: loadAtStart },
    };
  } finally {
    await before.db.close();
    await after.db.close();
    await dropPgDatabase(before.name);
    await dropPgDatabase(after.name);
  }
}
