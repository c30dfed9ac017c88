-- Resumption health in the session summary (event contract: resume.accepted.available,
-- resume.rejected, session.abandoned). Those events could not be stored before, so every
-- existing session is correctly 0 / NULL: no backfill.
ALTER TABLE "Session" ADD COLUMN "checkedResumes" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Session" ADD COLUMN "lossyResumes" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Session" ADD COLUMN "idleResumes" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Session" ADD COLUMN "rejectedResumes" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Session" ADD COLUMN "abandonedAt" BIGINT;
