-- Issue 24, incidents (lib/incidents). One incident per server and kind (a Sentry-like issue): it
-- opens on the first evidence (a flagged session, a firing alert, a failed door probe), later
-- evidence joins it, and evidence after it was resolved reopens it as a regression. "version"
-- is a compare-and-set counter: the leader's sweep, probe runs and acknowledgements on several
-- instances write the same row, and an acknowledgement is recorded once (WHERE "status" = 'open').
CREATE TABLE "Incident" (
    "id" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "firstSeenAt" BIGINT NOT NULL,
    "lastSeenAt" BIGINT NOT NULL,
    "openedAt" BIGINT NOT NULL,
    "sessionCount" INTEGER NOT NULL DEFAULT 0,
    "regressions" INTEGER NOT NULL DEFAULT 0,
    "regressedAt" BIGINT,
    "acknowledgedAt" BIGINT,
    "acknowledgedBy" TEXT,
    "resolvedAt" BIGINT,
    "resolvedBy" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Incident_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "Incident_server_kind_key" ON "Incident"("server", "kind");
CREATE INDEX "Incident_status_lastSeenAt_idx" ON "Incident"("status", "lastSeenAt");
CREATE INDEX "Incident_lastSeenAt_idx" ON "Incident"("lastSeenAt");

-- The sessions an incident affects (the incident's server), with the time of their evidence.
CREATE TABLE "IncidentSession" (
    "incidentId" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "at" BIGINT NOT NULL,
    CONSTRAINT "IncidentSession_pkey" PRIMARY KEY ("incidentId", "token")
);
CREATE INDEX "IncidentSession_incidentId_at_idx" ON "IncidentSession"("incidentId", "at");

-- Actions and notes, each with who and when: opened, regressed, acknowledged, resolved, auto_resolved, note.
CREATE TABLE "IncidentActivity" (
    "id" TEXT NOT NULL,
    "incidentId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "at" BIGINT NOT NULL,
    "actor" TEXT,
    "text" TEXT,

    CONSTRAINT "IncidentActivity_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "IncidentActivity_incidentId_at_idx" ON "IncidentActivity"("incidentId", "at");

-- Silences: a rule, a server or both; notifications they match are stored "suppressed" (and counted here).
CREATE TABLE "Silence" (
    "id" TEXT NOT NULL,
    "ruleId" TEXT,
    "server" TEXT,
    "reason" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" BIGINT NOT NULL,
    "endsAt" BIGINT NOT NULL,
    "expiredAt" BIGINT,
    "expiredBy" TEXT,
    "suppressed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Silence_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Silence_endsAt_idx" ON "Silence"("endsAt");

-- Where the leader's incident sweep has read up to ("Session"."updatedAt", the time a session was stored).
CREATE TABLE "IncidentCursor" (
    "name" TEXT NOT NULL,
    "position" BIGINT NOT NULL,

    CONSTRAINT "IncidentCursor_pkey" PRIMARY KEY ("name")
);

ALTER TABLE "AlertTransition" ADD COLUMN "incidentId" TEXT;
CREATE INDEX "AlertTransition_incidentId_idx" ON "AlertTransition"("incidentId");
CREATE INDEX "Session_updatedAt_idx" ON "Session"("updatedAt");
