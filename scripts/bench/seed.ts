// Data generator: fills a migrated database with a realistic fleet fast, straight through the
// raw driver, writing Event, Session and Rollup rows consistent with what ingest would store:
// each session row comes from the real summarize + toSessionRow, and Rollup from the real
// sessionContributions plus the per-event counters (events, drops), exactly as store-batch does.
import Database from 'better-sqlite3';
import { Client } from 'pg';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { timestampMs } from '@/lib/contract/timestamp';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { openDb } from '@/lib/db/client';
import { ensureDailyPartitions } from '@/lib/store/partitions';
import { summarize, DEFAULT_DEADLOCK_THRESHOLD_MS } from '@/lib/boundary/summarize';
import { summarizeResumption } from '@/lib/boundary/resumption-health';
import { SESSION_COLUMN_SPECS, SESSION_ROW_COLUMNS, sessionAnchors, toSessionRow, type SessionRow } from '@/lib/store/session-row';
import { EVENT_COLUMNS, EVENT_KEY_COLUMNS } from '@/lib/store/events';
import { insertManyAsUnnest } from '@/lib/db/sql';
import {
  addContributions,
  minuteOf,
  pruneZeroCells,
  sessionContributions,
  ROLLUP_COLUMNS,
  type RollupDelta,
} from '@/lib/metrics/rollup-contributions';
import {
  HISTOGRAM_ADD_TAIL,
  HISTOGRAM_COLUMN_SPECS,
  HISTOGRAM_QUARTER_ADD_TAIL,
  HISTOGRAM_QUARTER_COLUMN_SPECS,
  histogramQuarterRows,
  rollupAddTail,
  rollupColumnSpecs,
  splitRollupDelta,
} from '@/lib/store/rollups';
import { TABLE, TABLE_SQL } from '@/lib/store/tables';
import { generateSecret } from '@/lib/contract/server-secret';
import { generateFleet, serverName, type BenchSession } from './fleet';
import { log, machine, num, prepareDatabase, round, type Args } from './common';

const EVENT_COLS = EVENT_COLUMNS.map((c) => c.name);
type EventTuple = [string, string, string, string, number, null, string, number];

export interface SeedOptions {
  databaseUrl: string;
  events: number;
  sessions?: number;
  servers?: number;
  /** Timelines spread over the last `days` days. */
  days?: number;
  seed?: number;
  /** Fixed clock and token prefix (the consistency check replays the same fleet through ingest). */
  now?: number;
  prefix?: string;
  /** Overrides the last-`days` window. */
  window?: { fromMs: number; toMs: number };
  /**
   * SQLite: end with ANALYZE (default). The app never runs it, so a database that should plan as a running
   * app's does (the soak's seeded start) leaves it out; PostgreSQL's autovacuum analyzes either way.
   */
  statistics?: boolean;
  /** A folder holding prisma/<provider>/migrations to migrate with (default: the project's). */
  migrationsRoot?: string;
}

export interface SeedResult {
  part: 'seed';
  provider: string;
  events: number;
  sessions: number;
  rollupCells: number;
  servers: number;
  days: number;
  seconds: number;
  eventsPerSec: number;
  phases: Record<string, number>;
}

interface Writer {
  events(rows: EventTuple[]): Promise<void>;
  sessions(rows: SessionRow[]): Promise<void>;
  rollups(delta: RollupDelta): Promise<void>;
  close(): Promise<void>;
}

function sqliteWriter(file: string, statistics: boolean): Writer {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -200000');
  const ev = db.prepare(
    `INSERT INTO ${TABLE_SQL.event} (${EVENT_COLS.map((c) => `"${c}"`).join(',')}) VALUES (${EVENT_COLS.map(() => '?').join(',')}) ON CONFLICT DO NOTHING`,
  );
  const se = db.prepare(
    `INSERT INTO ${TABLE_SQL.session} (${SESSION_ROW_COLUMNS.map((c) => `"${c}"`).join(',')}) VALUES (${SESSION_ROW_COLUMNS.map(() => '?').join(',')})`,
  );
  const cols = ROLLUP_COLUMNS;
  const rollupInsert = (table: string) =>
    db.prepare(
      `INSERT INTO "${table}" ("server","minute",${cols.map((c) => `"${c}"`).join(',')}) VALUES (${['?', '?', ...cols.map(() => '?')].join(',')})
       ${rollupAddTail(cols, table)}`,
    );
  const ro = rollupInsert(TABLE.rollup);
  const rq = rollupInsert(TABLE.rollupQuarter);
  const rh = db.prepare(
    `INSERT INTO ${TABLE_SQL.latencyHistogram} (${HISTOGRAM_COLUMN_SPECS.map((c) => `"${c.name}"`).join(',')}) VALUES (${HISTOGRAM_COLUMN_SPECS.map(() => '?').join(',')}) ${HISTOGRAM_ADD_TAIL}`,
  );
  const rhq = db.prepare(
    `INSERT INTO ${TABLE_SQL.latencyHistogramQuarter} (${HISTOGRAM_QUARTER_COLUMN_SPECS.map((c) => `"${c.name}"`).join(',')}) VALUES (${HISTOGRAM_QUARTER_COLUMN_SPECS.map(() => '?').join(',')}) ${HISTOGRAM_QUARTER_ADD_TAIL}`,
  );
  const evTx = db.transaction((rows: EventTuple[]) => {
    for (const r of rows) ev.run(...r);
  });
  const seTx = db.transaction((rows: SessionRow[]) => {
    for (const r of rows) se.run(...SESSION_ROW_COLUMNS.map((c) => r[c]));
  });
  const roTx = db.transaction((delta: RollupDelta) => {
    const { minutes, quarters, histogram } = splitRollupDelta(delta);
    for (const cell of minutes) ro.run(cell.server, cell.minute, ...cols.map((c) => cell.values[c] ?? 0));
    for (const cell of quarters) rq.run(cell.server, cell.minute, ...cols.map((c) => cell.values[c] ?? 0));
    for (const h of histogram) rh.run(...h);
    for (const h of histogramQuarterRows(histogram)) rhq.run(...h);
  });
  return {
    async events(rows) {
      evTx(rows);
    },
    async sessions(rows) {
      seTx(rows);
    },
    async rollups(delta) {
      roTx(delta);
    },
    async close() {
      db.pragma('wal_checkpoint(TRUNCATE)');
      if (statistics) db.exec('ANALYZE');
      db.close();
    },
  };
}

/** PostgreSQL: the same one-statement unnest inserts as ingest (lib/db/sql.ts), in one session with synchronous_commit off. */
async function pgWriter(url: string): Promise<Writer> {
  const c = new Client({ connectionString: url });
  await c.connect();
  await c.query('SET synchronous_commit = off');
  const insert = async (
    table: string,
    columns: Parameters<typeof insertManyAsUnnest>[1],
    rows: readonly (readonly unknown[])[],
    tail: string,
  ) => {
    const { text, params } = insertManyAsUnnest(table, columns, rows, tail);
    await c.query(text, params);
  };
  const cols = ROLLUP_COLUMNS;
  return {
    async events(rows) {
      // Each event's identity too, as ingest writes it (lib/store/ingest-statements.ts): a resend of a seeded id is a duplicate.
      const keys = rows.map((r) => [r[0], r[1], r[4]]);
      await insert(TABLE.eventKey, EVENT_KEY_COLUMNS, keys, 'ON CONFLICT DO NOTHING');
      await insert(TABLE.event, EVENT_COLUMNS, rows, 'ON CONFLICT DO NOTHING');
    },
    async sessions(rows) {
      await insert(
        TABLE.session,
        SESSION_COLUMN_SPECS,
        rows.map((r) => SESSION_ROW_COLUMNS.map((col) => r[col])),
        '',
      );
    },
    async rollups(delta) {
      const { minutes, quarters, histogram } = splitRollupDelta(delta);
      for (const [table, cells] of [
        [TABLE.rollup, minutes],
        [TABLE.rollupQuarter, quarters],
      ] as const) {
        for (let i = 0; i < cells.length; i += 20_000) {
          const part = cells.slice(i, i + 20_000);
          await insert(
            table,
            rollupColumnSpecs(cols),
            part.map((x) => [x.server, x.minute, ...cols.map((col) => x.values[col] ?? 0)]),
            rollupAddTail(cols, table),
          );
        }
      }
      for (let i = 0; i < histogram.length; i += 20_000) {
        await insert(TABLE.latencyHistogram, HISTOGRAM_COLUMN_SPECS, histogram.slice(i, i + 20_000), HISTOGRAM_ADD_TAIL);
      }
      const quarterRows = histogramQuarterRows(histogram);
      for (let i = 0; i < quarterRows.length; i += 20_000) {
        await insert(
          TABLE.latencyHistogramQuarter,
          HISTOGRAM_QUARTER_COLUMN_SPECS,
          quarterRows.slice(i, i + 20_000),
          HISTOGRAM_QUARTER_ADD_TAIL,
        );
      }
    },
    async close() {
      await c.query('ANALYZE');
      await c.end();
    },
  };
}

export async function seed(o: SeedOptions): Promise<SeedResult> {
  const config = readDatabaseConfig({ DATABASE_URL: o.databaseUrl });
  const servers = o.servers ?? 20;
  const days = o.days ?? 7;
  const now = o.now ?? Date.now();
  // The bench servers get secrets so the seeded database also accepts ingest.
  await prepareDatabase(
    o.databaseUrl,
    Array.from({ length: servers }, (_, i) => ({ name: serverName(i), secret: generateSecret() })),
    o.migrationsRoot,
  );
  const fromMs = o.window?.fromMs ?? now - days * 86_400_000;
  const toMs = o.window?.toMs ?? now - 120_000;
  // PostgreSQL: the daily partitions a running app keeps for these days, so the seeded events land where
  // ingested ones would instead of in the default partition (no-op on SQLite and unpartitioned schemas).
  if (config.provider === 'postgresql') {
    const db = openDb(config);
    try {
      await ensureDailyPartitions(db.sql, 'event', fromMs, toMs);
    } finally {
      await db.close();
    }
  }
  const w = config.provider === 'sqlite' ? sqliteWriter(config.sqliteFile!, o.statistics ?? true) : await pgWriter(config.url);
  const phases = { generateAndSummarize: 0, events: 0, sessions: 0, rollups: 0 };
  const delta: RollupDelta = new Map();
  let evBuf: EventTuple[] = [];
  let seBuf: SessionRow[] = [];
  let events = 0;
  let sessions = 0;
  const t0 = performance.now();
  const flush = async () => {
    let t = performance.now();
    await w.events(evBuf);
    phases.events += performance.now() - t;
    t = performance.now();
    await w.sessions(seBuf);
    phases.sessions += performance.now() - t;
    evBuf = [];
    seBuf = [];
  };
  let tg = performance.now();
  const prefix = o.prefix ?? `sd${now.toString(36)}-`;
  for (const s of generateFleet({
    events: o.events,
    servers,
    fromMs,
    toMs,
    prefix,
    seed: o.seed ?? 11,
    eventsPerSession: o.sessions ? o.events / o.sessions : undefined,
  }) as Iterable<BenchSession>) {
    const timeline = s.events as unknown as DoorwatchEvent[];
    const summary = summarize(timeline, now, {
      server: s.server,
      deadlockThresholdMs: DEFAULT_DEADLOCK_THRESHOLD_MS,
      successor: s.successor,
    });
    let first = Infinity;
    for (const e of s.events) {
      const at = timestampMs(e.at);
      if (at < first) first = at;
      evBuf.push([s.server, e.id, e.token, e.type, at, null, JSON.stringify(e.data), at + 50]);
      addContributions(delta, s.server, [{ minute: minuteOf(at), column: 'events', value: 1 }], 1);
      if (e.type === 'stream.dropped') addContributions(delta, s.server, [{ minute: minuteOf(at), column: 'drops', value: 1 }], 1);
    }
    const row = toSessionRow(s.server, summary, summarizeResumption(timeline), first, now);
    addContributions(delta, s.server, sessionContributions(sessionAnchors(row)), 1);
    seBuf.push(row);
    events += s.events.length;
    sessions++;
    if (evBuf.length >= 50_000) {
      phases.generateAndSummarize += performance.now() - tg;
      await flush();
      tg = performance.now();
      if (sessions % 200_000 < 8_100)
        log(`seed: ${events} events, ${sessions} sessions, ${Math.round(events / ((performance.now() - t0) / 1000))} events/s`);
    }
  }
  phases.generateAndSummarize += performance.now() - tg;
  await flush();
  pruneZeroCells(delta);
  let t = performance.now();
  await w.rollups(delta);
  phases.rollups = performance.now() - t;
  t = performance.now();
  await w.close();
  const seconds = (performance.now() - t0) / 1000;
  return {
    part: 'seed',
    provider: config.provider,
    events,
    sessions,
    rollupCells: delta.size,
    servers,
    days,
    seconds: round(seconds, 1),
    eventsPerSec: Math.round(events / seconds),
    phases: Object.fromEntries(
      Object.entries({ ...phases, analyzeAndClose: performance.now() - t }).map(([k, v]) => [k, round(v / 1000, 1)]),
    ),
  };
}

export async function benchSeed(args: Args): Promise<SeedResult & { machine: ReturnType<typeof machine>; databaseUrl: string }> {
  const databaseUrl = args.flags.get('database-url');
  if (!databaseUrl) throw new Error('bench:seed needs --database-url file:/path/x.db or postgresql://...');
  const events = num(args, 'events', 1_000_000);
  const sessionsWanted = args.flags.has('sessions') ? num(args, 'sessions', 0) : undefined;
  // --sessions sets the average events per session (the fleet pads healthy sessions with
  // drop/resume cycles); without it the mix averages ~5.4 events per session.
  const r = await seed({ databaseUrl, events, sessions: sessionsWanted, servers: num(args, 'servers', 20), days: num(args, 'days', 7) });
  return { ...r, machine: machine(), databaseUrl: databaseUrl.replace(/\/\/[^@]*@/, '//') };
}
