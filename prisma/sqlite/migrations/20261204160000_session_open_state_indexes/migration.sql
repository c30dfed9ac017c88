-- Every /metrics scrape counts, per server, the upgrades pending and the ongoing deadlocks. Without an
-- index each count read every Session row (~1 s at 500,000 sessions on SQLite's event loop, growing with
-- history; measured in the soak). These partial indexes hold only the sessions in those states, so the
-- counts cost what is open now. They live in this SQL, not in models.prisma, which has no partial index.
CREATE INDEX "Session_upgrade_pending_idx" ON "Session"("server") WHERE "state" = 'upgrade_pending';
CREATE INDEX "Session_deadlock_unended_idx" ON "Session"("server", "deadlockStartedAt") WHERE "deadlockEndedAt" IS NULL AND "deadlockStartedAt" IS NOT NULL;
