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

interface TimelineRow {
  eventId: string;
  token: string;
  type: string;
  at: number;
  seq: number | null;
  data: string;
}

function rowToEvent(r: TimelineRow): DoorwatchEvent {
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

/** Inserts the events that are new for this server (idempotent per event id); returns the ids inserted. */
export async function insertNewEvents(
  tx: SqlExecutor,
  server: string,
  events: readonly DoorwatchEvent[],
  receivedAt: number,
): Promise<Set<string>> {
  const rows = events.map((e) => [
    server,
    e.id,
    e.token,
    e.type,
    timestampMs(e.at),
    e.seq ?? null,
    JSON.stringify(e.data ?? {}),
    receivedAt,
  ]);
  const inserted = await tx.insertMany<{ eventId: string }>(
    TABLE.event,
    EVENT_COLUMNS,
    rows,
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
 */
export function deleteEventsOfEndedTimelines(tx: SqlExecutor, cutoff: number, limit: number): Promise<number> {
  return tx.execute(
    `DELETE FROM ${TABLE_SQL.event} WHERE ("server", "eventId") IN (
       SELECT e."server", e."eventId" FROM ${TABLE_SQL.event} e
         JOIN ${TABLE_SQL.session} s ON s."server" = e."server" AND s."token" = e."token"
        WHERE e."at" < ? AND s."lastEventAt" < ?
        LIMIT ?)`,
    [cutoff, cutoff, limit],
  );
}
