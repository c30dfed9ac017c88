-- Every session upsert on ingest pays an entry in each of Session's secondary indexes (SQLite deletes
-- and re-inserts the entry of every index whose columns the upsert sets, and it sets them all;
-- PostgreSQL adds an entry to every index on each non-HOT update): 18.5-23.4 us a row with them against
-- 7.0-8.1 us without (docs/benchmarks.md, "Write path v2, step 2"). Seven of them are read only for the
-- sessions that have what they index, a minority: each becomes a partial index of those sessions, its
-- key unchanged. A session without it costs the index nothing, neither an entry when inserted nor a
-- move when updated.
--   previousToken                                  successors looked up on ingest: sessions naming a predecessor
--   refusedAt, boundaryOutcome, refusalLatencyMs   refusal percentiles and histogram extremes: refused sessions
--   deadlockStartedAt, deadlockEndedAt             deadlock counts, the list's deadlock filter: deadlocks and candidates
--   successorOpenedAt, renegotiationLatencyMs      renegotiation percentiles and extremes: renegotiated sessions
--   fBoundary / fNaiveResume / fDualNegotiation, lastEventAt    the list's flag filters: flagged sessions
-- Each reader's WHERE implies its index's condition on both databases: a comparison, = or IN on the
-- column implies IS NOT NULL, and the flag conditions appear literally
-- (tests/unit/session-read-plans.test.ts). They live in this SQL, not in models.prisma, which has no
-- partial index.
-- PostgreSQL only: Session_token_idx goes. Every read by token now compares it as Session_token_c_idx
-- does (COLLATE "C", lib/store/session-token-term.ts): the same rows for equality (the database's
-- collation is deterministic), so the default-collation index had no reader left, and it took a
-- random-keyed entry for every session row written.
DROP INDEX "Session_token_idx";
DROP INDEX "Session_previousToken_idx";
CREATE INDEX "Session_successors_previousToken_idx" ON "Session"("previousToken") WHERE "previousToken" IS NOT NULL;
DROP INDEX "Session_refusedAt_boundaryOutcome_refusalLatencyMs_idx";
CREATE INDEX "Session_refused_refusedAt_idx" ON "Session"("refusedAt", "boundaryOutcome", "refusalLatencyMs") WHERE "refusedAt" IS NOT NULL;
DROP INDEX "Session_deadlockStartedAt_deadlockEndedAt_idx";
CREATE INDEX "Session_deadlocks_deadlockStartedAt_idx" ON "Session"("deadlockStartedAt", "deadlockEndedAt") WHERE "deadlockStartedAt" IS NOT NULL;
DROP INDEX "Session_successorOpenedAt_renegotiationLatencyMs_idx";
CREATE INDEX "Session_renegotiated_successorOpenedAt_idx" ON "Session"("successorOpenedAt", "renegotiationLatencyMs") WHERE "successorOpenedAt" IS NOT NULL;
DROP INDEX "Session_fBoundary_lastEventAt_idx";
CREATE INDEX "Session_boundary_lastEventAt_idx" ON "Session"("fBoundary", "lastEventAt") WHERE "fBoundary" = 1;
DROP INDEX "Session_fNaiveResume_lastEventAt_idx";
CREATE INDEX "Session_naiveResume_lastEventAt_idx" ON "Session"("fNaiveResume", "lastEventAt") WHERE "fNaiveResume" = 1;
DROP INDEX "Session_fDualNegotiation_lastEventAt_idx";
CREATE INDEX "Session_dualNegotiation_lastEventAt_idx" ON "Session"("fDualNegotiation", "lastEventAt") WHERE "fDualNegotiation" = 1;
