-- The leader's incident sweep (lib/store/flagged-sessions.ts) is the only reader of Session."updatedAt",
-- and it wants only the flagged sessions (naive resume, dual negotiation, burned-token reuse; probes
-- aside). A whole-table index on "updatedAt" made each page walk every session written since the cursor
-- (most of them healthy: on the seeded soak's backlog, hundreds of thousands of rows a pass), and it
-- took an entry delete and insert on every session upsert. This partial index holds the flagged sessions
-- only, in the sweep's order, so a page reads what it returns and healthy sessions cost it nothing.
-- It lives in this SQL, not in models.prisma, which has no partial index.
DROP INDEX "Session_updatedAt_idx";
CREATE INDEX "Session_flagged_updatedAt_idx" ON "Session"("updatedAt", "server", "token") WHERE "synthetic" = 0 AND ("fNaiveResume" = 1 OR "fDualNegotiation" = 1 OR "fBurnedTokenReuse" = 1);
