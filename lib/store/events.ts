// The "Event" table: raw events, one row per (server, eventId). Ingest inserts them set-based and
// reloads whole timelines; the session detail reads one timeline; retention deletes old ones.
import type { DoorwatchEvent } from '@/lib/contract/event';
import { timestampMs } from '@/lib/contract/timestamp';
import type { ColumnSpec, SqlExecutor } from '@/lib/db/sql';
import { sessionKey, type SessionKey } from './session-key';
import { TABLE, TABLE_SQL, chunks, placeholders } from './tables';

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

/** PostgreSQL: the columns of "EventKey", an event's identity apart from its partitioned row (see ingest-statements.ts). */
export const EVENT_KEY_COLUMNS: readonly ColumnSpec[] = [
  { name: 'server', type: 'text' },
  { name: 'eventId', type: 'text' },
  { name: 'at', type: 'bigint' },
];

export interface TimelineRow {
  eventId: string;
  token: string;
  type: string;
  at: number;
  seq: number | null;
  data: string;
}

/** A stored row as the event it holds (times as ISO strings, data parsed). */
export function rowToEvent(r: TimelineRow): DoorwatchEvent {
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

/** An event as ingest stores it in "Event": the column values in EVENT_COLUMNS order. */
export function eventRow(server: string, e: DoorwatchEvent, receivedAt: number): unknown[] {
  return [server, e.id, e.token, e.type, timestampMs(e.at), e.seq ?? null, JSON.stringify(e.data ?? {}), receivedAt];
}

/**
 * The event exactly as rowToEvent would read it back once stored, without the round trip: a
 * summary must not depend on whether an event came from this batch or from the table.
 */
export function asStored(e: DoorwatchEvent): DoorwatchEvent {
  const event: Record<string, unknown> = {
    id: e.id,
    token: e.token,
    type: e.type,
    at: new Date(timestampMs(e.at)).toISOString(),
    data: e.data ?? {},
  };
  if (e.seq !== undefined && e.seq !== null) event.seq = e.seq;
  return event as unknown as DoorwatchEvent;
}

/**
 * SQLite: inserts the events that are new for this server (idempotent per event id, the primary
 * key (server, eventId) decides); returns the ids inserted. PostgreSQL inserts them inside one
 * statement with its reads (lib/store/ingest-statements.ts).
 */
export async function insertNewEvents(
  tx: SqlExecutor,
  server: string,
  events: readonly DoorwatchEvent[],
  receivedAt: number,
): Promise<Set<string>> {
  const inserted = await tx.insertMany<{ eventId: string }>(
    TABLE.event,
    EVENT_COLUMNS,
    events.map((e) => eventRow(server, e, receivedAt)),
    'ON CONFLICT ("server","eventId") DO NOTHING RETURNING "eventId"',
  );
  return new Set(inserted.map((r) => r.eventId));
}

/** The stored events of each (server, token), unordered, keyed by sessionKey. */
export async function loadTimelines(
  tx: SqlExecutor,
  keys: readonly { server: string; token: string }[],
): Promise<Map<SessionKey, DoorwatchEvent[]>> {
  const timelines = new Map<SessionKey, DoorwatchEvent[]>();
  const byServer = new Map<string, string[]>();
  for (const k of keys) byServer.set(k.server, [...(byServer.get(k.server) ?? []), k.token]);
  for (const [server, tokens] of byServer) {
    for (const part of chunks(tokens)) {
      const rows = await tx.query<TimelineRow>(
        `SELECT "eventId","token","type","at","seq","data" FROM ${TABLE_SQL.event} WHERE "server" = ? AND "token" IN (${placeholders(part.length)})`,
        [server, ...part],
      );
      for (const r of rows) {
        const k = sessionKey(server, r.token);
        let list = timelines.get(k);
        if (!list) timelines.set(k, (list = []));
        list.push(rowToEvent(r));
      }
    }
  }
  return timelines;
}

/** One stored event as the session detail shows it (times in epoch ms, data as stored JSON text). */
export interface StoredEvent {
  eventId: string;
  type: string;
  at: number;
  seq: number | null;
  data: string;
  receivedAt: number;
}

/** One session's stored events, unordered; numbers normalised (drivers may return BIGINT as string). */
export async function readSessionEvents(sql: SqlExecutor, server: string, token: string): Promise<StoredEvent[]> {
  const rows = await sql.query<StoredEvent>(
    `SELECT "eventId", "type", "at", "seq", "data", "receivedAt" FROM ${TABLE_SQL.event} WHERE "server" = ? AND "token" = ?`,
    [server, token],
  );
  return rows.map((e) => ({ ...e, at: Number(e.at), seq: e.seq === null ? null : Number(e.seq), receivedAt: Number(e.receivedAt) }));
}

/**
 * Deletes up to `limit` events older than `cutoff` whose session's last event is older too (only
 * whole timelines go). The subquery walks Event_at_idx and probes Session by primary key.
 * PostgreSQL ("Event" partitioned by "at"): the keys are read first and deleted by full primary
 * key, a nested loop of key probes pruned to each key's partition; one DELETE ... IN (subquery)
 * there plans as a hash semi-join over every old partition, read whole on every batch. The same
 * statement deletes their "EventKey" rows (a key goes with its event, never before it).
 */
export async function deleteEventsOfEndedTimelines(tx: SqlExecutor, cutoff: number, limit: number): Promise<number> {
  const ended = (columns: string) => `SELECT ${columns} FROM ${TABLE_SQL.event} e
         JOIN ${TABLE_SQL.session} s ON s."server" = e."server" AND s."token" = e."token"
        WHERE e."at" < ? AND s."lastEventAt" < ?
        LIMIT ?`;
  if (tx.provider !== 'postgresql') {
    return tx.execute(`DELETE FROM ${TABLE_SQL.event} WHERE ("server", "eventId") IN (${ended('e."server", e."eventId"')})`, [
      cutoff,
      cutoff,
      limit,
    ]);
  }
  const keys = await tx.query<{ server: string; eventId: string; at: number }>(ended('e."server", e."eventId", e."at"'), [
    cutoff,
    cutoff,
    limit,
  ]);
  if (keys.length === 0) return 0;
  const [{ n }] = await tx.query<{ n: number | string }>(
    `WITH "gone" AS (
       DELETE FROM ${TABLE_SQL.event} e USING unnest(?::text[], ?::text[], ?::int8[]) AS k("server", "eventId", "at")
        WHERE e."server" = k."server" AND e."eventId" = k."eventId" AND e."at" = k."at"
       RETURNING e."server", e."eventId"
     ), "keys" AS (
       DELETE FROM ${TABLE_SQL.eventKey} ek USING "gone" g WHERE ek."server" = g."server" AND ek."eventId" = g."eventId"
     )
     SELECT COUNT(*) AS "n" FROM "gone"`,
    [keys.map((k) => k.server), keys.map((k) => k.eventId), keys.map((k) => k.at)],
  );
  return Number(n);
}
