-- "EventKey": the identity of a stored event, (server, eventId), in one unpartitioned table (issue 26,
-- "event identity without a probe per partition"). "Event" is partitioned by "at" (migration
-- 20261201030000), so its primary key must contain "at" and cannot keep (server, eventId) unique on
-- its own; until now ingest took an advisory lock per event id and probed every partition's key for
-- the id. Now ingest inserts the batch's keys here first (INSERT … ON CONFLICT DO NOTHING RETURNING:
-- a concurrent insert of the same key waits for the first one's commit on this primary key) and
-- inserts into "Event" only the events whose key was new (lib/store/ingest-statements.ts).
--
-- A key lives at least as long as its event: retention deletes it in the transaction that deletes
-- the event, or, for a daily partition dropped whole, after detaching the partition and before
-- dropping it (lib/retention/prune-events.ts). "at" is the event's own time, kept for inspection and
-- for a sweep should one ever be needed; it is not indexed (nothing reads keys by time).
--
-- Backfill: one key per stored event (the earliest "at" should a pre-existing anomaly have stored an
-- id twice). The primary key is built once after the copy. Takes about as long as reading "Event"'s
-- key columns and sorting them: a few seconds per million events. PostgreSQL only; SQLite's "Event"
-- keeps (server, eventId) as its primary key.
CREATE TABLE "EventKey" (
    "server" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "at" BIGINT NOT NULL
);

INSERT INTO "EventKey" ("server", "eventId", "at")
SELECT DISTINCT ON ("server", "eventId") "server", "eventId", "at" FROM "Event" ORDER BY "server", "eventId", "at";

ALTER TABLE "EventKey" ADD CONSTRAINT "EventKey_pkey" PRIMARY KEY ("server", "eventId");
