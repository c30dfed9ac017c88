// The write path: one transaction stores new events, carries on (or redoes) the fold of every
// session they touch, summarises it, and applies the rollup deltas. What is stored
// and read, and in how many statements, is lib/store/ingest-statements.ts (three on
// PostgreSQL); this module decides the summaries and the delta between the reads and the writes.
import type { DoorwatchEvent } from '@/lib/contract/event';
import { timestampMs } from '@/lib/contract/timestamp';
import type { BatchOrigin, ReporterStatus } from '@/lib/contract/ingest-envelope';
import { summarizeFacts, type SuccessorSession } from '@/lib/boundary/summarize';
import { resumptionOf } from '@/lib/boundary/resumption-health';
import { encodeFoldState } from '@/lib/boundary/fold-state';
import type { Sql } from '@/lib/db/sql';
import { addContributions, minuteOf, pruneZeroCells, sessionContributions, type RollupDelta } from '@/lib/metrics/rollup-contributions';
import type { DeadLetter } from '@/lib/store/dead-letters';
import { ingestStatements, type LoadedBatch, type SuccessorCandidate } from '@/lib/store/ingest-statements';
import { sessionKey, type SessionKey } from '@/lib/store/session-key';
import { sessionAnchors, toSessionRow, type SessionRow } from '@/lib/store/session-row';
import { addVersionConflict, addVersionContribution, addVersionSeen, type VersionDelta } from '@/lib/metrics/version-contributions';
import { changeOf, type Change } from '@/lib/live/change';
import { changeNotification, publishAfterCommit } from '@/lib/live/announce';
import { carryFolds, redoFolds, turnsSynthetic, type SessionFold } from './session-folds';

export interface StoreResult {
  accepted: number;
  duplicates: number;
}

export interface StoreOptions {
  /** The wall clock: events' receivedAt, and the now the write-time summary judges against. */
  now: number;
  /**
   * The session rows' "updatedAt": Doorwatch's steady clock (lib/instance/doorwatch-clock.ts), never
   * earlier than a previous stamp of this process, so a backward step of the host clock cannot write
   * sessions behind the incident sweep's cursor (which moves on the same clock) for it to skip. On
   * PostgreSQL never behind the database's clock either: the leader's cursor is capped by that clock,
   * so an instance whose host clock is behind the leader's still writes where the sweep reads.
   */
  writtenAt: number;
  /** Whether writtenAt is raised to the database's clock (PostgreSQL): false when it is a caller's own clock (tests, benches). */
  floorAtDatabaseClock: boolean;
  deadlockThresholdMs: number;
  /** Invalid parts of the same request, committed in the same transaction as the valid events. */
  deadLetters?: readonly DeadLetter[];
  /** What the sender's reporter lost on its side, kept per (server, instance) in the same transaction. */
  reporter?: ReporterStatus;
  /** The server's version and instance the sender named for this batch (the first one named per token wins). */
  origin?: BatchOrigin;
  /** A door probe's batch (lib/probes/probe-service.ts): its tokens are recorded as synthetic first. */
  synthetic?: { runId: string; tokens: readonly string[] };
}

/** The previousToken a session.opened names, if any. */
function previousTokenOf(e: DoorwatchEvent): string | null {
  const prev = e.type === 'session.opened' ? (e.data as { previousToken?: unknown }).previousToken : undefined;
  return typeof prev === 'string' ? prev : null;
}

/** Repeats inside one request are duplicates too: keep the first copy of each id. */
function dedupe(events: readonly DoorwatchEvent[]): DoorwatchEvent[] {
  const unique = new Map<string, DoorwatchEvent>();
  for (const e of events) if (!unique.has(e.id)) unique.set(e.id, e);
  return [...unique.values()];
}

/** Every token whose summary this batch can change: its own, and the predecessors it names. */
function tokensToLock(batch: readonly DoorwatchEvent[]): Set<string> {
  const tokens = new Set<string>();
  for (const e of batch) {
    tokens.add(e.token);
    const prev = previousTokenOf(e);
    if (prev !== null) tokens.add(prev);
  }
  return tokens;
}

/** Per-event counters (events, drops) sit at the event's minute, independent of any session. */
function countEvents(delta: RollupDelta, server: string, events: readonly DoorwatchEvent[], sign: 1 | -1 = 1): void {
  for (const e of events) {
    const minute = minuteOf(timestampMs(e.at));
    addContributions(delta, server, [{ minute, column: 'events', value: 1 }], sign);
    if (e.type === 'stream.dropped') addContributions(delta, server, [{ minute, column: 'drops', value: 1 }], sign);
  }
}

/** Earliest session.opened (across servers) naming each token as its previousToken. */
function pickSuccessors(candidates: readonly SuccessorCandidate[]): Map<string, SuccessorSession> {
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
 * Turns each session's fold (lib/ingest/session-folds.ts) into its new row with `summarizeFacts`,
 * with its resumption health, and adds the old-row/new-row difference to the rollup delta. A first
 * pass without successors learns each session's previousToken/openedAt (successor candidates inside
 * this batch); sessions with a successor are summarised again with it.
 */
function summarizeSessions(
  loaded: LoadedBatch,
  folds: ReadonlyMap<SessionKey, SessionFold>,
  timelines: ReadonlyMap<SessionKey, DoorwatchEvent[]>,
  fresh: { server: string; ids: ReadonlySet<string> },
  delta: RollupDelta,
  options: StoreOptions,
  versions: VersionDelta,
): SessionRow[] {
  const { touched: keys, oldRows, synthetic } = loaded;
  const candidates: SuccessorCandidate[] = [...loaded.successorCandidates];
  const firstPass = new Map<SessionKey, ReturnType<typeof summarizeFacts>>();
  for (const k of keys) {
    const fold = folds.get(sessionKey(k.server, k.token));
    if (!fold) continue;
    const s = summarizeFacts(fold.state.facts, options.now, { server: k.server, deadlockThresholdMs: options.deadlockThresholdMs });
    firstPass.set(sessionKey(k.server, k.token), s);
    if (s.previousToken !== null && s.openedAt !== null) {
      candidates.push({ server: k.server, token: k.token, previousToken: s.previousToken, openedAt: timestampMs(s.openedAt) });
    }
  }
  const successors = pickSuccessors(candidates);

  const newRows: SessionRow[] = [];
  for (const k of keys) {
    const key = sessionKey(k.server, k.token);
    const fold = folds.get(key);
    if (!fold) continue;
    const old = oldRows.get(key);
    const successor = successors.get(k.token) ?? null;
    const facts = fold.state.facts;
    const summary = successor
      ? summarizeFacts(facts, options.now, { server: k.server, deadlockThresholdMs: options.deadlockThresholdMs, successor })
      : firstPass.get(key)!;
    const row = toSessionRow(k.server, summary, resumptionOf(facts), fold.firstEventAt, options.writtenAt, encodeFoldState(fold.state));
    // Synthetic sessions (door probes) stay out of the rollups, so fleet statistics count real traffic.
    if (synthetic.has(key)) row.synthetic = 1;
    stampVersion(row, old, k.server === fresh.server && loaded.fresh.has(key) ? options.origin : undefined, versions);
    if (old) addVersionContribution(versions, old, -1);
    addVersionContribution(versions, row, 1);
    if (old && Number(old.synthetic) === 0) {
      addContributions(delta, k.server, sessionContributions(sessionAnchors(old)), -1);
      // Reported before the probe recorded its token: its earlier events leave the counters too
      // (session-folds read the timeline of every session that turns synthetic).
      if (turnsSynthetic(loaded, key))
        countEvents(
          delta,
          k.server,
          (timelines.get(key) ?? []).filter((e) => k.server !== fresh.server || !fresh.ids.has(e.id)),
          -1,
        );
    }
    if (row.synthetic === 0) addContributions(delta, k.server, sessionContributions(sessionAnchors(row)), 1);
    newRows.push(row);
  }
  return newRows;
}

/**
 * The version and instance that served a session: the stored ones, else what this batch names (only
 * for sessions with events in it). A batch naming another version for a session that has one keeps
 * the first and counts a conflict under the version it named.
 */
function stampVersion(row: SessionRow, old: SessionRow | undefined, origin: BatchOrigin | undefined, versions: VersionDelta): void {
  row.version = old?.version ?? origin?.version ?? null;
  row.instance = old?.instance ?? origin?.instance ?? null;
  if (origin?.version !== undefined && old?.version != null && old.version !== origin.version) {
    addVersionConflict(versions, row.server, origin.version, row.lastEventAt);
  }
}

/** The batch's version is seen over its fresh events' times, whether or not a session took it. */
function markVersionSeen(versions: VersionDelta, server: string, fresh: readonly DoorwatchEvent[], origin?: BatchOrigin): void {
  if (origin?.version === undefined || fresh.length === 0) return;
  const times = fresh.map((e) => timestampMs(e.at));
  addVersionSeen(versions, server, origin.version, Math.min(...times), Math.max(...times));
}

/**
 * Stores a batch of already-validated events for one server. Idempotent per (server, event id).
 * On PostgreSQL, sessions are serialised per token with transaction-scoped advisory locks so
 * two instances ingesting the same token never lose each other's update.
 */
export async function storeBatch(sql: Sql, server: string, events: readonly DoorwatchEvent[], options: StoreOptions): Promise<StoreResult> {
  const batch = dedupe(events);

  let change: Change | null = null;
  const result = await sql.transaction(async (tx) => {
    const statements = ingestStatements(tx);
    // Refused parts and reporter losses commit (or fail) with the valid events: a 200 covers all.
    const { databaseNow } = await statements.begin(tx, {
      server,
      now: options.now,
      deadLetters: options.deadLetters ?? [],
      reporter: options.reporter,
      synthetic: batch.length > 0 ? options.synthetic : undefined,
      tokens: tokensToLock(batch),
    });
    if (batch.length === 0) return { accepted: 0, duplicates: 0 };

    // A session's fold is carried on with new events in timeline order, and redone from its whole
    // stored timeline when an event comes late, so arrival order never matters.
    const loaded = await statements.insertAndLoad(tx, server, batch, batch.map(previousTokenOf), options.now);
    const fresh = batch.filter((e) => loaded.inserted.has(e.id));
    if (fresh.length === 0) return { accepted: 0, duplicates: events.length };
    const delta: RollupDelta = new Map();
    countEvents(
      delta,
      server,
      fresh.filter((e) => !loaded.synthetic.has(sessionKey(server, e.token))),
    );
    const { folds, reload } = carryFolds(loaded);
    const timelines = reload.length > 0 ? await statements.loadTimelines(tx, reload) : new Map<SessionKey, DoorwatchEvent[]>();
    redoFolds(loaded, reload, timelines, folds);
    const freshIds = { server, ids: loaded.inserted };
    const versions: VersionDelta = new Map();
    markVersionSeen(versions, server, fresh, options.origin);
    const raise = options.floorAtDatabaseClock && databaseNow !== null && databaseNow > options.writtenAt;
    const stamp = raise ? { ...options, writtenAt: databaseNow } : options;
    const sessionRows = summarizeSessions(loaded, folds, timelines, freshIds, delta, stamp, versions);
    pruneZeroCells(delta);
    change = changeOf(loaded.touched);
    // Open pages learn what changed: delivered with the commit (lib/live).
    await statements.finish(tx, { sessionRows, delta, versions, notification: changeNotification(tx.provider, change) });
    return { accepted: fresh.length, duplicates: events.length - fresh.length };
  });
  publishAfterCommit(sql.provider, change);
  return result;
}
