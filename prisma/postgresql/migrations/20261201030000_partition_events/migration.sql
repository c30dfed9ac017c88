-- Event and DeadLetter become range-partitioned by day (PostgreSQL only; SQLite keeps one table
-- each and batched deletes). Retention then drops whole daily partitions instead of deleting rows
-- (lib/retention/prune-events.ts, docs/deploy.md "Partitions"). Applied offline by the project's
-- runner in one transaction: the old tables are renamed, the partitioned ones created, every row
-- moved, the old tables dropped. Takes about as long as copying the two tables.
--
-- Partition keys are the columns retention ages by: "Event"."at" (the event's own time, which
-- the ended-timeline rule and Session."lastEventAt" compare against) and
-- "DeadLetter"."receivedAt". A unique constraint on a partitioned table must contain the
-- partition key, so the primary keys gain it; lib/store/events.ts keeps (server, eventId)
-- unique on its own (a resend with another "at" is still a duplicate).
--
-- Daily partitions [00:00 UTC, next 00:00 UTC) in epoch ms are named <table>_pYYYYMMDD; the app
-- creates the coming days itself (lib/store/partitions.ts). Here: every day that has rows within
-- the last 400 days, plus yesterday to seven days ahead. Anything else lands in <table>_default,
-- so an insert never fails; retention deletes old rows from it in batches.

-- Event ------------------------------------------------------------------------------------------
ALTER TABLE "Event" RENAME TO "Event_unpartitioned";
ALTER TABLE "Event_unpartitioned" RENAME CONSTRAINT "Event_pkey" TO "Event_unpartitioned_pkey";
DROP INDEX "Event_server_token_at_idx";
DROP INDEX "Event_at_idx";

CREATE TABLE "Event" (
    "server" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "at" BIGINT NOT NULL,
    "seq" INTEGER,
    "data" TEXT NOT NULL,
    "receivedAt" BIGINT NOT NULL
) PARTITION BY RANGE ("at");
CREATE TABLE "Event_default" PARTITION OF "Event" DEFAULT;

-- DeadLetter -------------------------------------------------------------------------------------
ALTER TABLE "DeadLetter" RENAME TO "DeadLetter_unpartitioned";
ALTER TABLE "DeadLetter_unpartitioned" RENAME CONSTRAINT "DeadLetter_pkey" TO "DeadLetter_unpartitioned_pkey";
DROP INDEX "DeadLetter_receivedAt_idx";
DROP INDEX "DeadLetter_server_receivedAt_idx";

CREATE TABLE "DeadLetter" (
    "id" TEXT NOT NULL,
    "server" TEXT,
    "receivedAt" BIGINT NOT NULL,
    "code" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "eventIndex" INTEGER,
    "eventId" TEXT,
    "payload" TEXT NOT NULL
) PARTITION BY RANGE ("receivedAt");
CREATE TABLE "DeadLetter_default" PARTITION OF "DeadLetter" DEFAULT;

-- Daily partitions for the days that hold rows (and the days around today) -----------------------
DO $$
DECLARE
  day_ms CONSTANT BIGINT := 86400000;
  today BIGINT := floor(extract(epoch FROM now()) * 1000 / 86400000)::BIGINT;
  spec RECORD;
  d BIGINT;
BEGIN
  FOR spec IN SELECT * FROM (VALUES ('Event', 'Event_unpartitioned', 'at'), ('DeadLetter', 'DeadLetter_unpartitioned', 'receivedAt')) AS s(parent, source, col)
  LOOP
    FOR d IN EXECUTE format(
      'SELECT DISTINCT day FROM (SELECT floor(%I / %s::numeric)::BIGINT AS day FROM %I) x WHERE day BETWEEN $1 AND $2
       UNION SELECT generate_series($3, $2)',
      spec.col, day_ms, spec.source) USING today - 400, today + 7, today - 1
    LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)',
        spec.parent || '_p' || to_char(to_timestamp(d * 86400) AT TIME ZONE 'UTC', 'YYYYMMDD'),
        spec.parent, d * day_ms, (d + 1) * day_ms);
    END LOOP;
  END LOOP;
END $$;

-- Move the rows, then build the keys and indexes once over the loaded partitions ---------------
INSERT INTO "Event" SELECT "server", "eventId", "token", "type", "at", "seq", "data", "receivedAt" FROM "Event_unpartitioned";
INSERT INTO "DeadLetter" SELECT "id", "server", "receivedAt", "code", "message", "eventIndex", "eventId", "payload" FROM "DeadLetter_unpartitioned";
DROP TABLE "Event_unpartitioned";
DROP TABLE "DeadLetter_unpartitioned";

ALTER TABLE "Event" ADD CONSTRAINT "Event_pkey" PRIMARY KEY ("server", "eventId", "at");
CREATE INDEX "Event_server_token_at_idx" ON "Event"("server", "token", "at");
CREATE INDEX "Event_at_idx" ON "Event"("at");

ALTER TABLE "DeadLetter" ADD CONSTRAINT "DeadLetter_pkey" PRIMARY KEY ("id", "receivedAt");
CREATE INDEX "DeadLetter_receivedAt_idx" ON "DeadLetter"("receivedAt");
CREATE INDEX "DeadLetter_server_receivedAt_idx" ON "DeadLetter"("server", "receivedAt");
