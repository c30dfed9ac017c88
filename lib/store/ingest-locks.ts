// The locks an ingest transaction takes on PostgreSQL before it reads anything (SQLite has one
// writer: none): per token, transaction-scoped advisory locks, released at commit or rollback, so a
// crashed instance leaves none behind; docs/architecture.md ("Several instances") says why. Two
// transactions adding events to one token (two instances, or two requests) would each summarize the
// timeline without the other's events and the later commit would overwrite the earlier summary (a
// lost update, and rollup deltas against the wrong old row).
// Event ids need no lock: the "EventKey" primary key makes a concurrent insert of the same id wait
// for the first one's commit (lib/store/ingest-statements.ts).

/**
 * A select-list entry that takes the token locks; params in text order. The keys are sorted, and
 * PostgreSQL evaluates a select list left to right, so every transaction takes its locks in one
 * global order and two of them never wait on each other in a cycle.
 */
export function ingestLockColumns(tokens: Iterable<string>): { text: string; params: unknown[] } {
  return {
    text: `(SELECT COUNT(pg_advisory_xact_lock(h)) FROM (
              SELECT DISTINCT hashtextextended(t, 0) AS h FROM unnest(?::text[]) AS t ORDER BY h) AS tokens) AS "tokenLocks"`,
    params: [[...new Set(tokens)]],
  };
}
