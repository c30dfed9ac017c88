// The statements of one ingest transaction (lib/ingest/store-batch.ts decides what to write; this
// module stores and reads it), in three steps:
//   1. begin: dead letters, the reporter's status, a probe's tokens; on PostgreSQL the locks first;
//   2. insertAndLoad: insert the new events, read what their summaries need (the stored rows with
//      their folds, not the timelines: lib/ingest/session-folds.ts carries a fold on with the new
//      events, and only a session whose fold cannot be carried on has its timeline read, by
//      loadTimelines, a statement of its own);
//   3. finish: upsert the summaries, add the rollup delta, announce the change (PostgreSQL).
// SQLite runs each table's statement in turn: it is in-process, a statement costs no round trip.
// PostgreSQL runs each step as ONE statement (data-modifying CTEs), three round trips per batch
// instead of ~13. Step 1 cannot join step 2: under READ COMMITTED a statement's snapshot is taken
// when it starts, so reads in the statement that waited for a token's lock would not see the
// events the previous holder committed meanwhile.
import type { DoorwatchEvent } from '@/lib/contract/event';
import type { ReporterStatus } from '@/lib/contract/ingest-envelope';
import { PG_NOW_MS } from '@/lib/db/database-clock';
import { unnestInsert, unnestRows, type ColumnSpec, type RowsInsert, type SqlExecutor } from '@/lib/db/sql';
import type { RollupDelta } from '@/lib/metrics/rollup-contributions';
import type { VersionDelta } from '@/lib/metrics/version-contributions';
import { deadLetterInsert, storeDeadLetters, type DeadLetter } from './dead-letters';
import { EVENT_COLUMNS, asStored, eventRow, insertNewEvents, loadTimelines } from './events';
import { ingestLockColumns } from './ingest-locks';
import { reporterStatusInsert, storeReporterStatus } from './reporter-status';
import { applyRollupDelta, rollupWrites } from './rollups';
import { recomputeHistogramExtremes } from './histogram-recompute';
import { applyServerVersionDelta, serverVersionInsert } from './server-versions';
import { sessionKey, type SessionKey } from './session-key';
import { sessionTokenTerm } from './session-token-term';
import type { SessionRow } from './session-row';
import { sessionUpsert, sessionsNamingPredecessors, sessionsOfServer, sessionsWithTokens, upsertSessionRows } from './sessions';
import { recordSyntheticTokens, syntheticTokenInsert, syntheticTokensAmong } from './synthetic-tokens';
import { TABLE_SQL } from './tables';

export interface SessionRef {
  server: string;
  token: string;
}

export interface SuccessorCandidate extends SessionRef {
  previousToken: string;
  openedAt: number;
}

export interface BatchStart {
  server: string;
  now: number;
  deadLetters: readonly DeadLetter[];
  reporter?: ReporterStatus;
  synthetic?: { runId: string; tokens: readonly string[] };
  /** Every token whose summary the batch can change (locked on PostgreSQL); empty for a batch without events. */
  tokens: ReadonlySet<string>;
}

export interface LoadedBatch {
  /** Ids of the events this batch inserted (the others were stored already). */
  inserted: ReadonlySet<string>;
  /** The sessions the fresh events can change: theirs, and the stored predecessors a new session.opened names. */
  touched: SessionRef[];
  /** The events this batch inserted, per session, in their stored form, unordered. */
  fresh: Map<SessionKey, DoorwatchEvent[]>;
  /** The touched sessions' stored rows: the "before" side of the rollup delta. */
  oldRows: Map<SessionKey, SessionRow>;
  /** Touched sessions a probe opened: stored as synthetic, or their token recorded by one. */
  synthetic: Set<SessionKey>;
  /** Stored sessions, not touched, whose session.opened names a touched token as previousToken. */
  successorCandidates: SuccessorCandidate[];
}

export interface BatchWrites {
  sessionRows: readonly SessionRow[];
  delta: RollupDelta;
  /** Per-version counters and seen bounds ("ServerVersion"). */
  versions: VersionDelta;
  /** A NOTIFY delivered with the commit (lib/live/announce.ts), or null. */
  notification: { channel: string; payload: string } | null;
}

export interface IngestStatements {
  /** Resolves to the database's clock at the transaction's start (PostgreSQL; null on SQLite or with nothing to lock). */
  begin(tx: SqlExecutor, start: BatchStart): Promise<{ databaseNow: number | null }>;
  /** `previousTokens[i]`: the previousToken events[i] names (a session.opened), or null. */
  insertAndLoad(
    tx: SqlExecutor,
    server: string,
    events: readonly DoorwatchEvent[],
    previousTokens: readonly (string | null)[],
    receivedAt: number,
  ): Promise<LoadedBatch>;
  /** The whole stored timelines (this transaction's inserts included), unordered, of sessions whose fold must be redone. */
  loadTimelines(tx: SqlExecutor, keys: readonly SessionRef[]): Promise<Map<SessionKey, DoorwatchEvent[]>>;
  finish(tx: SqlExecutor, writes: BatchWrites): Promise<void>;
}

const nothingLoaded = (inserted: ReadonlySet<string>): LoadedBatch => ({
  inserted,
  touched: [],
  fresh: new Map(),
  oldRows: new Map(),
  synthetic: new Set(),
  successorCandidates: [],
});

function groupByServer(keys: readonly SessionRef[]): Map<string, string[]> {
  const byServer = new Map<string, string[]>();
  for (const k of keys) {
    const list = byServer.get(k.server);
    if (list) list.push(k.token);
    else byServer.set(k.server, [k.token]);
  }
  return byServer;
}

/** The events a batch inserted, per session, as a read of the table would return them. */
function freshBySession(
  server: string,
  events: readonly DoorwatchEvent[],
  inserted: ReadonlySet<string>,
): Map<SessionKey, DoorwatchEvent[]> {
  const fresh = new Map<SessionKey, DoorwatchEvent[]>();
  for (const e of events) {
    if (!inserted.has(e.id)) continue;
    const key = sessionKey(server, e.token);
    const list = fresh.get(key);
    if (list) list.push(asStored(e));
    else fresh.set(key, [asStored(e)]);
  }
  return fresh;
}

// ------------------------------------------------------------------------------------ SQLite

const sqliteStatements: IngestStatements = {
  async begin(tx, start) {
    if (start.deadLetters.length > 0) await storeDeadLetters(tx, start.deadLetters, start.now);
    if (start.reporter) await storeReporterStatus(tx, start.server, start.reporter, start.now);
    if (start.synthetic) await recordSyntheticTokens(tx, start.server, start.synthetic.tokens, start.synthetic.runId, start.now);
    return { databaseNow: null };
  },

  async insertAndLoad(tx, server, events, previousTokens, receivedAt) {
    const inserted = await insertNewEvents(tx, server, events, receivedAt);
    if (inserted.size === 0) return nothingLoaded(inserted);
    const touched = new Map<SessionKey, SessionRef>();
    const newPrevTokens = new Set<string>();
    events.forEach((e, i) => {
      if (!inserted.has(e.id)) return;
      touched.set(sessionKey(server, e.token), { server, token: e.token });
      if (previousTokens[i] !== null) newPrevTokens.add(previousTokens[i]!);
    });
    // A probe's token is synthetic on every server that reports it: the sessions of other servers
    // with such a token are touched too, so one reported before the probe recorded it is flipped.
    const syntheticTokens = await syntheticTokensAmong(tx, [...new Set([...touched.values()].map((k) => k.token))]);
    const alsoTouch = new Set([...newPrevTokens, ...syntheticTokens]);
    if (alsoTouch.size > 0) {
      for (const p of await sessionsWithTokens(tx, [...alsoTouch]))
        touched.set(sessionKey(p.server, p.token), { server: p.server, token: p.token });
    }
    const keys = [...touched.values()];
    const oldRows = new Map<SessionKey, SessionRow>();
    const synthetic = new Set<SessionKey>();
    for (const k of keys) if (syntheticTokens.has(k.token)) synthetic.add(sessionKey(k.server, k.token));
    for (const [srv, tokens] of groupByServer(keys)) {
      for (const r of await sessionsOfServer(tx, srv, tokens)) {
        oldRows.set(sessionKey(r.server, r.token), r);
        if (Number(r.synthetic) === 1) synthetic.add(sessionKey(r.server, r.token));
      }
    }
    const successorCandidates: SuccessorCandidate[] = [];
    for (const r of await sessionsNamingPredecessors(tx, [...new Set(keys.map((k) => k.token))])) {
      if (r.openedAt !== null && !touched.has(sessionKey(r.server, r.token))) {
        successorCandidates.push({ server: r.server, token: r.token, previousToken: r.previousToken!, openedAt: Number(r.openedAt) });
      }
    }
    return { inserted, touched: keys, fresh: freshBySession(server, events, inserted), oldRows, synthetic, successorCandidates };
  },

  loadTimelines,

  async finish(tx, writes) {
    if (writes.sessionRows.length > 0) await upsertSessionRows(tx, writes.sessionRows);
    await applyRollupDelta(tx, writes.delta);
    await applyServerVersionDelta(tx, writes.versions);
  },
};

// -------------------------------------------------------------------------------- PostgreSQL

/**
 * Inserts as data-modifying CTEs named w0, w1, … ahead of `main`; params in text order.
 * PostgreSQL runs `main` first, then the CTEs (last one first, as PostgreSQL 15 does): the
 * order is the same in every transaction, so row locks on shared rows (rollup cells, a
 * reporter's status) are still taken in one global order.
 */
function withInserts(inserts: readonly RowsInsert[], main: { text: string; params: unknown[] }): { text: string; params: unknown[] } {
  if (inserts.length === 0) return main;
  const ctes = inserts.map((insert) => unnestInsert(insert));
  return {
    text: `WITH ${ctes.map((c, i) => `"w${i}" AS (${c.text})`).join(',\n')}\n${main.text}`,
    params: [...ctes.flatMap((c) => c.params), ...main.params],
  };
}

/** The batch's events plus the previousToken each names, as the rows of CTE "v". */
const BATCH_COLUMNS: readonly ColumnSpec[] = [...EVENT_COLUMNS, { name: 'previousToken', type: 'text' }];
const EVENT_NAMES = EVENT_COLUMNS.map((c) => `"${c.name}"`).join(',');
/** A stored session's token where it is looked up by token alone: in the token index's collation (session-token-term.ts). */
const PG_TOKEN = sessionTokenTerm('postgresql', '"s"');

/**
 * One statement inserts the new events and reads everything summarizing them needs, each row
 * tagged by "k":
 *   f  an event this statement inserted (eventId): its timeline copy comes from the batch;
 *   s  a touched session's stored row ("data": the row as JSON, so one column carries all);
 *   y  a touched token a probe recorded (on any server: "server" is null);
 *   c  a stored session naming a touched token as previousToken ("type": that token, "at": openedAt).
 * Every read sees the state at the statement's start (the token locks are already held: step 1).
 * The stored events are not read here: a session's stored fold is carried on with the inserted ones,
 * and the few sessions whose fold must be redone are read by loadTimelines.
 *
 * Identity: "Event" is partitioned by "at" and its primary key includes it, so that key alone would
 * let a resend of an id with another time become a second row. The batch's keys go into the
 * unpartitioned "EventKey" first (migration 20261205010000_event_key); an event is inserted only if its key
 * was new. A concurrent insert of the same key (another request or instance, whatever its token)
 * waits on that primary key for the first one's commit and then skips it (READ COMMITTED), or takes
 * it if the first rolled back. The keys are inserted in eventId order, so two batches sharing ids
 * wait on each other's keys in one global order, never in a cycle. No probe per partition, no lock
 * per id. "Event"'s own ON CONFLICT DO NOTHING only guards rows that predate their key.
 *
 * The touched keys are matched as server = ANY(…) AND token = ANY(…), conditions on the
 * (server, token…) indexes, rather than by a join with the CTE, which could become a hash join over
 * whole partitions; the cross-product rows that no touched session owns are dropped here.
 */
const INSERT_AND_LOAD = `WITH "v" AS (
  ${unnestRows(BATCH_COLUMNS, []).text} AS "v"(${BATCH_COLUMNS.map((c) => `"${c.name}"`).join(',')})
), "key" AS (
  INSERT INTO ${TABLE_SQL.eventKey} ("server","eventId","at")
  SELECT "server","eventId","at" FROM "v" ORDER BY "eventId"
  ON CONFLICT DO NOTHING
  RETURNING "eventId"
), "ins" AS (
  INSERT INTO ${TABLE_SQL.event} (${EVENT_NAMES})
  SELECT ${EVENT_COLUMNS.map((c) => `"v"."${c.name}"`).join(',')} FROM "v" JOIN "key" ON "key"."eventId" = "v"."eventId"
  ON CONFLICT DO NOTHING
  RETURNING "eventId"
), "touched" AS (
  SELECT "v"."server", "v"."token" FROM "ins" JOIN "v" ON "v"."eventId" = "ins"."eventId"
  UNION
  SELECT "s"."server", "s"."token" FROM ${TABLE_SQL.session} "s"
   WHERE ${PG_TOKEN} = ANY (ARRAY(SELECT "v"."previousToken" FROM "ins" JOIN "v" ON "v"."eventId" = "ins"."eventId"
                                   WHERE "v"."previousToken" IS NOT NULL))
  UNION
  SELECT "s"."server", "s"."token" FROM ${TABLE_SQL.session} "s"
   WHERE ${PG_TOKEN} = ANY (ARRAY(SELECT "t"."token" FROM ${TABLE_SQL.syntheticToken} "t"
                                   WHERE "t"."token" = ANY (ARRAY(SELECT "v"."token" FROM "ins" JOIN "v" ON "v"."eventId" = "ins"."eventId"))))
)
SELECT 'f' AS "k", NULL::text AS "server", NULL::text AS "token", "eventId", NULL::text AS "type", NULL::int8 AS "at", NULL::int4 AS "seq", NULL::text AS "data"
  FROM "ins"
UNION ALL
SELECT 's', "s"."server", "s"."token", NULL, NULL, NULL, NULL, row_to_json("s")::text FROM ${TABLE_SQL.session} "s"
 WHERE "s"."server" = ANY (ARRAY(SELECT DISTINCT "server" FROM "touched")) AND "s"."token" = ANY (ARRAY(SELECT DISTINCT "token" FROM "touched"))
UNION ALL
SELECT DISTINCT 'y', NULL::text, "t"."token", NULL::text, NULL::text, NULL::int8, NULL::int4, NULL::text FROM ${TABLE_SQL.syntheticToken} "t"
 WHERE "t"."token" = ANY (ARRAY(SELECT DISTINCT "token" FROM "touched"))
UNION ALL
SELECT 'c', "s"."server", "s"."token", NULL, "s"."previousToken", "s"."openedAt", NULL, NULL FROM ${TABLE_SQL.session} "s"
 WHERE "s"."previousToken" = ANY (ARRAY(SELECT DISTINCT "token" FROM "touched")) AND "s"."openedAt" IS NOT NULL`;

interface LoadRow {
  k: 'f' | 's' | 'y' | 'c';
  server: string | null;
  token: string | null;
  eventId: string | null;
  type: string | null;
  at: number | null;
  seq: number | null;
  data: string | null;
}

const postgresqlStatements: IngestStatements = {
  async begin(tx, start) {
    const inserts: RowsInsert[] = [];
    if (start.deadLetters.length > 0) inserts.push(deadLetterInsert(start.deadLetters, start.now));
    if (start.reporter) inserts.push(reporterStatusInsert(start.server, start.reporter, start.now));
    if (start.synthetic) inserts.push(syntheticTokenInsert(start.server, start.synthetic.tokens, start.synthetic.runId, start.now));
    // The select list (the locks) runs before the CTEs' inserts (withInserts).
    const main = start.tokens.size > 0 ? ingestLockColumns(start.tokens) : { text: '1', params: [] };
    if (inserts.length === 0 && start.tokens.size === 0) return { databaseNow: null };
    // The server's clock rides along (no round trip): the sessions' "updatedAt" is never behind it.
    const { text, params } = withInserts(inserts, { text: `SELECT ${main.text}, ${PG_NOW_MS} AS "databaseNow"`, params: main.params });
    const [row] = await tx.query<{ databaseNow: number }>(text, params);
    return { databaseNow: Number(row.databaseNow) };
  },

  async insertAndLoad(tx, server, events, previousTokens, receivedAt) {
    const rows = events.map((e, i) => [...eventRow(server, e, receivedAt), previousTokens[i]]);
    const result = await tx.query<LoadRow>(INSERT_AND_LOAD, unnestRows(BATCH_COLUMNS, rows).params);
    const inserted = new Set<string>();
    for (const r of result) if (r.k === 'f') inserted.add(r.eventId!);
    if (inserted.size === 0) return nothingLoaded(inserted);

    const touched = new Map<SessionKey, SessionRef>();
    const newPrevTokens = new Set<string>();
    events.forEach((e, i) => {
      if (!inserted.has(e.id)) return;
      const key = sessionKey(server, e.token);
      touched.set(key, { server, token: e.token });
      if (previousTokens[i] !== null) newPrevTokens.add(previousTokens[i]!);
    });
    // A probe's tokens are synthetic on every server (the "touched" CTE took their sessions in).
    const syntheticTokens = new Set<string>();
    for (const r of result) if (r.k === 'y') syntheticTokens.add(r.token!);
    // Stored rows first: the predecessors among them are touched too, wherever they live, and so
    // are other servers' sessions of a probe's token.
    const oldRows = new Map<SessionKey, SessionRow>();
    for (const r of result) {
      if (r.k !== 's') continue;
      const row = JSON.parse(r.data!) as SessionRow;
      const key = sessionKey(row.server, row.token);
      if (newPrevTokens.has(row.token) || syntheticTokens.has(row.token)) touched.set(key, { server: row.server, token: row.token });
      if (touched.has(key)) oldRows.set(key, row);
    }
    const synthetic = new Set<SessionKey>();
    const successorCandidates: SuccessorCandidate[] = [];
    for (const r of result) {
      if (r.k !== 'c' || touched.has(sessionKey(r.server!, r.token!))) continue;
      successorCandidates.push({ server: r.server!, token: r.token!, previousToken: r.type!, openedAt: Number(r.at) });
    }
    for (const k of touched.values()) if (syntheticTokens.has(k.token)) synthetic.add(sessionKey(k.server, k.token));
    for (const [key, row] of oldRows) if (Number(row.synthetic) === 1) synthetic.add(key);
    return {
      inserted,
      touched: [...touched.values()],
      fresh: freshBySession(server, events, inserted),
      oldRows,
      synthetic,
      successorCandidates,
    };
  },

  loadTimelines,

  async finish(tx, writes) {
    const rollups = rollupWrites(writes.delta);
    const versionInsert = serverVersionInsert(writes.versions);
    const inserts = [
      ...(writes.sessionRows.length > 0 ? [sessionUpsert(writes.sessionRows)] : []),
      ...rollups.inserts,
      ...(versionInsert ? [versionInsert] : []),
    ];
    if (inserts.length === 0 && writes.notification === null) return;
    const main = writes.notification
      ? { text: 'SELECT pg_notify(?, ?)', params: [writes.notification.channel, writes.notification.payload] }
      : { text: 'SELECT 1', params: [] };
    const { text, params } = withInserts(inserts, main);
    await tx.query(text, params);
    // Rare (a late event removed a cell's possible min/max): a statement of its own, which sees the
    // Session rows the one above wrote.
    await recomputeHistogramExtremes(tx, rollups.recompute);
  },
};

export function ingestStatements(tx: SqlExecutor): IngestStatements {
  return tx.provider === 'postgresql' ? postgresqlStatements : sqliteStatements;
}
