-- Issue 24: the version (build) and instance that served each session, as the first batch naming a
-- version for its token said (lib/ingest/store-batch.ts); NULL for senders that name none.
ALTER TABLE "Session" ADD COLUMN "version" TEXT;
ALTER TABLE "Session" ADD COLUMN "instance" TEXT;
CREATE INDEX "Session_server_version_lastEventAt_idx" ON "Session"("server", "version", "lastEventAt");

-- Per server and version: when it was first and last reported (event time) and what its sessions
-- did, kept by ingest as deltas in the write transaction (lib/store/server-versions.ts).
CREATE TABLE "ServerVersion" (
    "server" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "firstSeenAt" BIGINT NOT NULL,
    "lastSeenAt" BIGINT NOT NULL,
    "sessions" INTEGER NOT NULL DEFAULT 0,
    "naiveResumes" INTEGER NOT NULL DEFAULT 0,
    "dualNegotiations" INTEGER NOT NULL DEFAULT 0,
    "burnedReuses" INTEGER NOT NULL DEFAULT 0,
    "refusals" INTEGER NOT NULL DEFAULT 0,
    "deadlocks" INTEGER NOT NULL DEFAULT 0,
    "conflicts" INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY ("server", "version")
);

-- Deploy notes and other marks on the time charts (lib/store/annotations.ts), close to Grafana's.
CREATE TABLE "Annotation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "time" BIGINT NOT NULL,
    "timeEnd" BIGINT,
    "text" TEXT NOT NULL,
    "tags" TEXT NOT NULL,
    "server" TEXT,
    "createdBy" TEXT NOT NULL,
    "createdAt" BIGINT NOT NULL
);
CREATE INDEX "Annotation_time_idx" ON "Annotation"("time");
