// npm run bench -- session-upsert [--rows 20000] [--preload 200000] [--batch 92] [--json]: what
// Session's indexes cost the SQLite write path, per session row, without HTTP or the rest of ingest.
// Three files side by side, each preloaded with the same sessions: "before" migrated up to the
// migration before 20261205040000_session_partial_indexes (every Session index whole), "after"
// with every migration, and "bare" (after, less every Session index but its primary key: the
// floor). The same rows then go through the app's own upsert (sessionUpsert on its SQLite
// executor, one transaction per `batch` rows, ingest's ~92 sessions per 500-event batch), first as
// new sessions, then again as updates of them (the conflict path), alternating blocks of 10
// transactions between the files so load drifts hit all three. The rows are the bench fleet's
// (scripts/bench/fleet.ts: an anomaly-heavy mix) summarized as ingest does, with random
// 36-character tokens as reporters send and a 660-byte foldState as ingest stores.
import { randomUUID } from 'node:crypto';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { timestampMs } from '@/lib/contract/timestamp';
import { summarize, DEFAULT_DEADLOCK_THRESHOLD_MS } from '@/lib/boundary/summarize';
import { summarizeResumption } from '@/lib/boundary/resumption-health';
import { toSessionRow, type SessionRow } from '@/lib/store/session-row';
import { upsertSessionRows } from '@/lib/store/sessions';
import { cleanupSqlite, log, machine, migrationsRootBefore, num, prepareDatabase, round, ROOT, tempSqliteUrl, type Args } from './common';
import { generateFleet } from './fleet';

const PARTIAL_INDEX_MIGRATION = '20261205040000_session_partial_indexes';
const VARIANTS = ['before', 'after', 'bare'] as const;
type Variant = (typeof VARIANTS)[number];
const FOLD_STATE = JSON.stringify({ pad: 'x'.repeat(640) });

/** `count` session rows of the bench fleet, in the order their sessions started, tokens made random. */
function sessionRows(count: number, now: number): SessionRow[] {
  const rows: SessionRow[] = [];
  const tokens = new Map<string, string>();
  const random = (t: string | null) => {
    if (t === null) return null;
    let r = tokens.get(t);
    if (!r) tokens.set(t, (r = randomUUID()));
    return r;
  };
  // ~5.4 events a session: ask for a few more events than the rows need.
  for (const s of generateFleet({
    events: Math.ceil(count * 6),
    servers: 8,
    fromMs: now - 7 * 86_400_000,
    toMs: now - 600_000,
    prefix: 'su-',
    seed: 7,
  })) {
    const timeline = s.events as unknown as DoorwatchEvent[];
    const summary = summarize(timeline, now, {
      server: s.server,
      deadlockThresholdMs: DEFAULT_DEADLOCK_THRESHOLD_MS,
      successor: s.successor,
    });
    const first = Math.min(...s.events.map((e) => timestampMs(e.at)));
    const row = toSessionRow(s.server, summary, summarizeResumption(timeline), first, now, FOLD_STATE);
    rows.push({ ...row, token: random(row.token)!, previousToken: random(row.previousToken), successorToken: random(row.successorToken) });
  }
  return rows.sort((a, b) => a.firstEventAt - b.firstEventAt).slice(0, count);
}

async function open(variant: Variant, preload: readonly SessionRow[]): Promise<{ db: Db; dir: string }> {
  const tmp = tempSqliteUrl();
  await prepareDatabase(tmp.url, [], variant === 'before' ? migrationsRootBefore(PARTIAL_INDEX_MIGRATION, 'sqlite') : ROOT);
  const db = openDb(readDatabaseConfig({ DATABASE_URL: tmp.url }));
  if (variant === 'bare') {
    const indexes = await db.sql.query<{ name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Session' AND sql IS NOT NULL`,
    );
    for (const { name } of indexes) await db.sql.execute(`DROP INDEX "${name}"`);
  }
  for (let i = 0; i < preload.length; i += 5_000) {
    const part = preload.slice(i, i + 5_000);
    await db.sql.transaction((tx) => upsertSessionRows(tx, part));
  }
  return { db, dir: tmp.dir };
}

export async function benchSessionUpsert(args: Args) {
  const count = num(args, 'rows', 20_000);
  const preloadCount = num(args, 'preload', 200_000, { allowZero: true });
  const batch = num(args, 'batch', 92);
  const now = Date.now();
  const loadAtStart = machine().loadavg;
  const all = sessionRows(preloadCount + count, now);
  const preload = all.slice(0, preloadCount);
  const fresh = all.slice(preloadCount);
  const updated = fresh.map((r) => ({
    ...r,
    lastEventAt: r.lastEventAt + 1_000,
    eventCount: r.eventCount + 1,
    updatedAt: r.updatedAt + 1_000,
  }));
  const batches = (rows: SessionRow[]) =>
    Array.from({ length: Math.ceil(rows.length / batch) }, (_, i) => rows.slice(i * batch, (i + 1) * batch));
  log(`session-upsert: preloading ${preload.length} sessions into each of ${VARIANTS.join(', ')}`);
  const dbs = {} as Record<Variant, { db: Db; dir: string }>;
  for (const v of VARIANTS) dbs[v] = await open(v, preload);
  const share = (pick: (r: SessionRow) => boolean) => round((100 * fresh.filter(pick).length) / fresh.length, 1);
  try {
    const phases: Record<'insert' | 'update', Record<Variant, { statementMs: number; transactionMs: number }>> = {
      insert: {
        before: { statementMs: 0, transactionMs: 0 },
        after: { statementMs: 0, transactionMs: 0 },
        bare: { statementMs: 0, transactionMs: 0 },
      },
      update: {
        before: { statementMs: 0, transactionMs: 0 },
        after: { statementMs: 0, transactionMs: 0 },
        bare: { statementMs: 0, transactionMs: 0 },
      },
    };
    for (const [phase, rows] of [
      ['insert', fresh],
      ['update', updated],
    ] as const) {
      const list = batches(rows);
      for (let i = 0; i < list.length; i += 10) {
        const block = list.slice(i, i + 10);
        // Each block in a rotated order, so no file is always first after a pause.
        const k = (i / 10) % VARIANTS.length;
        for (const v of [...VARIANTS.slice(k), ...VARIANTS.slice(0, k)]) {
          const m = phases[phase][v];
          for (const b of block) {
            const t0 = performance.now();
            await dbs[v].db.sql.transaction(async (tx) => {
              const t = performance.now();
              await upsertSessionRows(tx, b);
              m.statementMs += performance.now() - t;
            });
            m.transactionMs += performance.now() - t0;
          }
        }
      }
    }
    const perRow = (ms: number) => round((ms * 1000) / count, 2);
    const result = Object.fromEntries(
      (['insert', 'update'] as const).map((phase) => [
        phase,
        Object.fromEntries(
          VARIANTS.map((v) => [
            v,
            { statementUsPerRow: perRow(phases[phase][v].statementMs), transactionUsPerRow: perRow(phases[phase][v].transactionMs) },
          ]),
        ),
      ]),
    );
    log(`session-upsert: ${JSON.stringify(result)}`);
    return {
      part: 'session-upsert',
      provider: 'sqlite',
      rows: count,
      preload: preload.length,
      batch,
      // How many of the timed rows each partial index holds (the rest cost it nothing).
      sharesPct: {
        previousToken: share((r) => r.previousToken !== null),
        refusedAt: share((r) => r.refusedAt !== null),
        deadlockStartedAt: share((r) => r.deadlockStartedAt !== null),
        successorOpenedAt: share((r) => r.successorOpenedAt !== null),
        fBoundary: share((r) => r.fBoundary === 1),
        fNaiveResume: share((r) => r.fNaiveResume === 1),
        fDualNegotiation: share((r) => r.fDualNegotiation === 1),
      },
      ...result,
      machine: { ...machine(), loadavgAtStart: loadAtStart },
    };
  } finally {
    for (const v of VARIANTS) {
      await dbs[v]?.db.close();
      if (dbs[v]) cleanupSqlite(dbs[v].dir);
    }
  }
}
