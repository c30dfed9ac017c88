// The write path: one transaction stores new events, recomputes the summaries of every
// session they touch from the ordered timeline, and applies the rollup deltas. Set-based
// SQL (multi-row INSERT ... ON CONFLICT) keeps it to a handful of statements per batch.
import type { DoorwatchEvent } from '@/lib/contract/event';
import { timestampMs } from '@/lib/contract/timestamp';
import { summarizeFacts, type SuccessorSession } from '@/lib/boundary/summarize';
import type { ColumnSpec, SqlExecutor, Sql } from '@/lib/db/sql';
import {
  addContributions,
  minuteOf,
  pruneZeroCells,
  rollupColumnSpecs,
  sessionContributions,
  type RollupColumn,
  type RollupDelta,
} from '@/lib/metrics/rollup-contributions';
import { resumptionOf } from '@/lib/boundary/resumption-health';
import { deriveSessionFacts, type SessionFacts } from '@/lib/boundary/session-state';
import { SESSION_COLUMN_SPECS, SESSION_ROW_COLUMNS, sessionAnchors, toSessionRow, type SessionRow } from './session-row';
import { storeDeadLetters, type DeadLetter } from './dead-letters';
import { storeReporterStatus } from './reporter-status';
import type { ReporterStatus } from '@/lib/contract/ingest-envelope';

export interface StoreResult {
  accepted: number;
  duplicates: number;
}

export interface StoreOptions {
  now: number;
  deadlockThresholdMs: number;
  /** Invalid parts of the same request, committed in the same transaction as the valid events. */
  deadLetters?: readonly DeadLetter[];
  /** What the sender's reporter lost on its side, kept per (server, instance) in the same transaction. */
  reporter?: ReporterStatus;
}

const CHUNK = 400; // rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

interface EventRow {
  eventId: string;
  token: string;
  type: string;
  at: number;
  seq: number | null;
  data: string;
}

function rowToEvent(r: EventRow): DoorwatchEvent {
  const event: Record<string, unknown> = {
    id: r.eventId,
    token: r.token,
    type: r.type,
    at: new Date(r.at).toISOString(),
    data: JSON.parse(r.data),
  };
  if (r.seq !== null) event.seq = r.seq;
  return event as unknown as DoorwatchEvent;
}

/** The columns of "Event" in the order ingest (and the benchmark seeder) writes them. */
export const EVENT_COLUMNS: readonly ColumnSpec[] = [
  { name: 'server', type: 'text' },
  { name: 'eventId', type: 'text' },
  { name: 'token', type: 'text' },
  { name: 'type', type: 'text' },
  { name: 'at', type: 'bigint' },
  { name: 'seq', type: 'int' },
  { name: 'data', type: 'text' },
  { name: 'receivedAt', type: 'bigint' },
];

/** Inserts events that are new for this server; returns the ids that were inserted. */
async function insertNewEvents(tx: SqlExecutor, server: string, events: readonly DoorwatchEvent[], receivedAt: number): Promise<Set<string>> {
  const rows = events.map((e) => [server, e.id, e.token, e.type, timestampMs(e.at), e.seq ?? null, JSON.stringify(e.data ?? {}), receivedAt]);
  const inserted = await tx.insertMany<{ eventId: string }>('Event', EVENT_COLUMNS, rows, 'ON CONFLICT ("server","eventId") DO NOTHING RETURNING "eventId"');
  return new Set(inserted.map((r) => r.eventId));
}

type Key = string; // `${server}\u0000${token}`
const keyOf = (server: string, token: string): Key => `${server}\u0000${token}`;

async function loadTimelines(tx: SqlExecutor, keys: readonly { server: string; token: string }[]): Promise<Map<Key, DoorwatchEvent[]>> {
  const timelines = new Map<Key, DoorwatchEvent[]>();
  const byServer = new Map<string, string[]>();
  for (const k of keys) byServer.set(k.server, [...(byServer.get(k.server) ?? []), k.token]);
  for (const [server, tokens] of byServer) {
    for (const part of chunks(tokens)) {
      const rows = await tx.query<EventRow>(
        `SELECT "eventId","token","type","at","seq","data" FROM "Event" WHERE "server" = ? AND "token" IN (${part.map(() => '?').join(',')})`,
        [server, ...part],
      );
      for (const r of rows) {
        const k = keyOf(server, r.token);
        let list = timelines.get(k);
        if (!list) timelines.set(k, (list = []));
        list.push(rowToEvent(r));
      }
    }
  }
  return timelines;
}

async function loadSessionRows(tx: SqlExecutor, where: string, values: readonly string[], extra: readonly unknown[] = []): Promise<SessionRow[]> {
  const out: SessionRow[] = [];
  for (const part of chunks(values)) {
    out.push(...(await tx.query<SessionRow>(`SELECT * FROM "Session" WHERE ${where}(${part.map(() => '?').join(',')})`, [...extra, ...part])));
  }
  return out;
}

async function upsertSessions(tx: SqlExecutor, rows: readonly SessionRow[]): Promise<void> {
  const updates = SESSION_ROW_COLUMNS.filter((c) => c !== 'server' && c !== 'token').map((c) => `"${c}" = excluded."${c}"`).join(',');
  await tx.insertMany('Session', SESSION_COLUMN_SPECS, rows.map((r) => SESSION_ROW_COLUMNS.map((c) => r[c])), `ON CONFLICT ("server","token") DO UPDATE SET ${updates}`);
}

async function applyRollupDelta(tx: SqlExecutor, delta: RollupDelta): Promise<void> {
  // Cells in (server, minute) order, in one statement per chunk: concurrent transactions (other
  // tokens, other instances) lock shared Rollup rows in the same order, so they queue instead of
  // deadlocking. Columns a cell does not touch add 0.
  const cells = [...delta.values()].sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : a.minute - b.minute));
  if (cells.length === 0) return;
  const used = new Set<RollupColumn>();
  for (const cell of cells) for (const c of Object.keys(cell.values) as RollupColumn[]) used.add(c);
  const cols = [...used].sort();
  await tx.insertMany(
    'Rollup',
    rollupColumnSpecs(cols),
    cells.map((cell) => [cell.server, cell.minute, ...cols.map((c) => cell.values[c] ?? 0)]),
    `ON CONFLICT ("server","minute") DO UPDATE SET ${cols.map((c) => `"${c}" = "Rollup"."${c}" + excluded."${c}"`).join(',')}`,
  );
}

/** Earliest session.opened (across servers) naming each token as its previousToken. */
function pickSuccessors(candidates: readonly { server: string; token: string; previousToken: string; openedAt: number }[]): Map<string, SuccessorSession> {
  const best = new Map<string, { server: string; token: string; openedAt: number }>();
  for (const c of candidates) {
    const cur = best.get(c.previousToken);
    const better =
      !cur || c.openedAt < cur.openedAt || (c.openedAt === cur.openedAt && `${c.server}/${c.token}` < `${cur.server}/${cur.token}`);
    if (better) best.set(c.previousToken, { server: c.server, token: c.token, openedAt: c.openedAt });
  }
  const out = new Map<string, SuccessorSession>();
  for (const [prev, s] of best) out.set(prev, { server: s.server, token: s.token, openedAt: new Date(s.openedAt).toISOString() });
  return out;
}

/**
 * Stores a batch of already-validated events for one server. Idempotent per (server, event id).
 * On PostgreSQL, sessions are serialised per token with transaction-scoped advisory locks so
 * two instances ingesting the same token never lose each other's update.
 */
export async function storeBatch(sql: Sql, server: string, events: readonly DoorwatchEvent[], options: StoreOptions): Promise<StoreResult> {
  // Repeats inside one request are duplicates too; keep the first copy.
  const unique = new Map<string, DoorwatchEvent>();
  for (const e of events) if (!unique.has(e.id)) unique.set(e.id, e);
  const batch = [...unique.values()];

  return sql.transaction(async (tx) => {
    if (options.deadLetters?.length) await storeDeadLetters(tx, options.deadLetters, options.now);
    if (options.reporter) await storeReporterStatus(tx, server, options.reporter, options.now);
    if (batch.length === 0) return { accepted: 0, duplicates: 0 };
    if (tx.provider === 'postgresql') {
      const lockTokens = new Set<string>();
      for (const e of batch) {
        lockTokens.add(e.token);
        const prev = e.type === 'session.opened' ? (e.data as { previousToken?: unknown }).previousToken : undefined;
        if (typeof prev === 'string') lockTokens.add(prev);
      }
      // Sorted, so two transactions always take locks in the same order (no deadlock). One
      // statement per chunk: PostgreSQL evaluates the select list left to right. execute(),
      // not query(): the function returns void, which Prisma's raw query cannot deserialize.
      for (const part of chunks([...lockTokens].sort())) {
        await tx.execute(`SELECT ${part.map(() => 'pg_advisory_xact_lock(hashtextextended(?, 0))').join(', ')}`, part);
      }
    }

    const inserted = await insertNewEvents(tx, server, batch, options.now);
    const fresh = batch.filter((e) => inserted.has(e.id));
    const delta: RollupDelta = new Map();
    for (const e of fresh) {
      const at = timestampMs(e.at);
      addContributions(delta, server, [{ minute: minuteOf(at), column: 'events', value: 1 }], 1);
      if (e.type === 'stream.dropped') addContributions(delta, server, [{ minute: minuteOf(at), column: 'drops', value: 1 }], 1);
    }
    if (fresh.length > 0) {
      const touched = new Map<Key, { server: string; token: string }>();
      for (const e of fresh) touched.set(keyOf(server, e.token), { server, token: e.token });

      // A new session.opened with previousToken changes its predecessor's summary (renegotiated),
      // wherever that predecessor lives: recompute those sessions too.
      const newPrevTokens = new Set<string>();
      for (const e of fresh) {
        const prev = e.type === 'session.opened' ? (e.data as { previousToken?: unknown }).previousToken : undefined;
        if (typeof prev === 'string') newPrevTokens.add(prev);
      }
      if (newPrevTokens.size > 0) {
        const preds = await loadSessionRows(tx, '"token" IN ', [...newPrevTokens]);
        for (const p of preds) touched.set(keyOf(p.server, p.token), { server: p.server, token: p.token });
      }

      const keys = [...touched.values()];
      const timelines = await loadTimelines(tx, keys);
      const oldRows = new Map<Key, SessionRow>();
      const byServer = new Map<string, string[]>();
      for (const k of keys) byServer.set(k.server, [...(byServer.get(k.server) ?? []), k.token]);
      for (const [srv, tokens] of byServer) {
        for (const r of await loadSessionRows(tx, '"server" = ? AND "token" IN ', tokens, [srv])) oldRows.set(keyOf(r.server, r.token), r);
      }

      // Successor candidates: stored sessions naming a touched token, plus sessions in this batch.
      const touchedTokens = [...new Set(keys.map((k) => k.token))];
      const candidates: { server: string; token: string; previousToken: string; openedAt: number }[] = [];
      const stored = await loadSessionRows(tx, '"previousToken" IN ', touchedTokens);
      for (const r of stored) {
        if (r.openedAt !== null && !touched.has(keyOf(r.server, r.token))) {
          candidates.push({ server: r.server, token: r.token, previousToken: r.previousToken!, openedAt: r.openedAt });
        }
      }
      // Summaries of the touched sessions themselves (first pass without successors, to learn previousToken/openedAt).
      const firstPass = new Map<Key, ReturnType<typeof summarizeFacts>>();
      const factsOf = new Map<Key, SessionFacts>();
      for (const k of keys) {
        const timeline = timelines.get(keyOf(k.server, k.token));
        if (!timeline || timeline.length === 0) continue;
        const facts = deriveSessionFacts(timeline);
        factsOf.set(keyOf(k.server, k.token), facts);
        const s = summarizeFacts(facts, options.now, { server: k.server, deadlockThresholdMs: options.deadlockThresholdMs });
        firstPass.set(keyOf(k.server, k.token), s);
        if (s.previousToken !== null && s.openedAt !== null) {
          candidates.push({ server: k.server, token: k.token, previousToken: s.previousToken, openedAt: timestampMs(s.openedAt) });
        }
      }
      const successors = pickSuccessors(candidates);

      const freshPerKey = new Map<Key, number>();
      for (const e of fresh) freshPerKey.set(keyOf(server, e.token), (freshPerKey.get(keyOf(server, e.token)) ?? 0) + 1);
      const newRows: SessionRow[] = [];
      for (const k of keys) {
        const key = keyOf(k.server, k.token);
        const timeline = timelines.get(key);
        if (!timeline || timeline.length === 0) continue;
        const old = oldRows.get(key);
        // Retention pruned this session's timeline (lib/retention): its stored summary is the
        // truth; recomputing from what is left would overwrite it and skew the rollups.
        if (old && timeline.length - (freshPerKey.get(key) ?? 0) < old.eventCount) continue;
        const successor = successors.get(k.token) ?? null;
        const facts = factsOf.get(key)!;
        const summary = successor
          ? summarizeFacts(facts, options.now, { server: k.server, deadlockThresholdMs: options.deadlockThresholdMs, successor })
          : firstPass.get(key)!;
        const firstEventAt = Math.min(...timeline.map((e) => timestampMs(e.at)));
        const row = toSessionRow(k.server, summary, resumptionOf(facts), firstEventAt, options.now);
        if (old) addContributions(delta, k.server, sessionContributions(sessionAnchors(old)), -1);
        addContributions(delta, k.server, sessionContributions(sessionAnchors(row)), 1);
        newRows.push(row);
      }
      await upsertSessions(tx, newRows);
    }
    pruneZeroCells(delta);
    await applyRollupDelta(tx, delta);
    return { accepted: fresh.length, duplicates: events.length - fresh.length };
  });
}
