// The locks an ingest transaction takes on PostgreSQL before it reads anything (SQLite has one
// writer: none). Both are transaction-scoped advisory locks, released at commit or rollback, so a
// crashed instance leaves none behind; docs/architecture.md ("Several instances") says why.
// - per token: two transactions adding events to one token (two instances, or two requests)
//   would each summarize the timeline without the other's events and the later commit would
//   overwrite the earlier summary (a lost update, and rollup deltas against the wrong old row);
// - per event id, class EVENT_ID_LOCK_CLASS of the two-key space: "Event" is partitioned by "at"
//   (lib/store/partitions.ts), so its primary key cannot keep (server, eventId) unique alone, and
//   a concurrent insert of the same id must wait for the first one's commit
//   (lib/store/ingest-statements.ts probes the stored ids after taking these).

/** Advisory lock class of the per-event-id locks (the first key of pg_advisory_xact_lock(int4, int4)). */
export const EVENT_ID_LOCK_CLASS = 72707375;

/**
 * Select-list entries that take the token locks, then the event-id locks; params in text order.
 * Each set is sorted by lock key, and PostgreSQL evaluates a select list left to right, so every
 * transaction takes its locks in one global order (token keys, then id keys) and two of them
 * never wait on each other in a cycle.
 */
export function ingestLockColumns(
  server: string,
  tokens: Iterable<string>,
  eventIds: readonly string[],
): { text: string; params: unknown[] } {
  return {
    text: `(SELECT COUNT(pg_advisory_xact_lock(h)) FROM (
              SELECT DISTINCT hashtextextended(t, 0) AS h FROM unnest(?::text[]) AS t ORDER BY h) AS tokens) AS "tokenLocks",
           (SELECT COUNT(pg_advisory_xact_lock(${EVENT_ID_LOCK_CLASS}, h)) FROM (
              SELECT DISTINCT hashtext(?::text || '/' || id) AS h FROM unnest(?::text[]) AS id ORDER BY h) AS ids) AS "idLocks"`,
    params: [[...new Set(tokens)], server, eventIds],
  };
}
