-- CreateTable
CREATE TABLE "Server" (
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Server_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "ServerSecret" (
    "id" TEXT NOT NULL,
    "serverName" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    CONSTRAINT "ServerSecret_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "server" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "at" BIGINT NOT NULL,
    "seq" INTEGER,
    "data" TEXT NOT NULL,
    "receivedAt" BIGINT NOT NULL,
    CONSTRAINT "Event_pkey" PRIMARY KEY ("server", "eventId")
);

-- CreateTable
CREATE TABLE "Session" (
    "server" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "flags" TEXT NOT NULL,
    "boundaryOutcome" TEXT,
    "openedAt" BIGINT,
    "firstEventAt" BIGINT NOT NULL,
    "lastEventAt" BIGINT NOT NULL,
    "eventCount" INTEGER NOT NULL,
    "boundaryAt" BIGINT,
    "answeredAt" BIGINT,
    "refusedAt" BIGINT,
    "refusalLatencyMs" INTEGER,
    "naiveResumeAt" BIGINT,
    "dualNegotiationAt" BIGINT,
    "dualNegotiationCount" INTEGER NOT NULL DEFAULT 0,
    "burnedTokenReuseAt" BIGINT,
    "dropCount" INTEGER NOT NULL DEFAULT 0,
    "deadlockStartedAt" BIGINT,
    "deadlockEndedAt" BIGINT,
    "deadlockDurationMs" BIGINT,
    "previousToken" TEXT,
    "successorServer" TEXT,
    "successorToken" TEXT,
    "successorOpenedAt" BIGINT,
    "renegotiationLatencyMs" INTEGER,
    "fBoundary" INTEGER NOT NULL DEFAULT 0,
    "fRefused" INTEGER NOT NULL DEFAULT 0,
    "fNaiveResume" INTEGER NOT NULL DEFAULT 0,
    "fDualNegotiation" INTEGER NOT NULL DEFAULT 0,
    "fRenegotiated" INTEGER NOT NULL DEFAULT 0,
    "fBurnedTokenReuse" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" BIGINT NOT NULL,
    CONSTRAINT "Session_pkey" PRIMARY KEY ("server", "token")
);

-- CreateTable
CREATE TABLE "Rollup" (
    "server" TEXT NOT NULL,
    "minute" BIGINT NOT NULL,
    "events" INTEGER NOT NULL DEFAULT 0,
    "sessions" INTEGER NOT NULL DEFAULT 0,
    "drops" INTEGER NOT NULL DEFAULT 0,
    "boundary" INTEGER NOT NULL DEFAULT 0,
    "refused" INTEGER NOT NULL DEFAULT 0,
    "naiveResumes" INTEGER NOT NULL DEFAULT 0,
    "dualNegotiations" INTEGER NOT NULL DEFAULT 0,
    "burnedReuses" INTEGER NOT NULL DEFAULT 0,
    "deadlocks" INTEGER NOT NULL DEFAULT 0,
    "deadlockIdleMs" BIGINT NOT NULL DEFAULT 0,
    "renegotiations" INTEGER NOT NULL DEFAULT 0,
    "renegUnder200ms" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Rollup_pkey" PRIMARY KEY ("server", "minute")
);

-- CreateTable
CREATE TABLE "DeadLetter" (
    "id" TEXT NOT NULL,
    "server" TEXT,
    "receivedAt" BIGINT NOT NULL,
    "code" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "eventIndex" INTEGER,
    "eventId" TEXT,
    "payload" TEXT NOT NULL,
    CONSTRAINT "DeadLetter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OperatorToken" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    CONSTRAINT "OperatorToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ServerSecret_serverName_idx" ON "ServerSecret"("serverName");

-- CreateIndex
CREATE INDEX "Event_server_token_at_idx" ON "Event"("server", "token", "at");

-- CreateIndex
CREATE INDEX "Event_at_idx" ON "Event"("at");

-- CreateIndex
CREATE INDEX "Session_lastEventAt_idx" ON "Session"("lastEventAt");

-- CreateIndex
CREATE INDEX "Session_server_lastEventAt_idx" ON "Session"("server", "lastEventAt");

-- CreateIndex
CREATE INDEX "Session_token_idx" ON "Session"("token");

-- CreateIndex
CREATE INDEX "Session_previousToken_idx" ON "Session"("previousToken");

-- CreateIndex
CREATE INDEX "Session_refusedAt_boundaryOutcome_refusalLatencyMs_idx" ON "Session"("refusedAt", "boundaryOutcome", "refusalLatencyMs");

-- CreateIndex
CREATE INDEX "Session_deadlockStartedAt_deadlockEndedAt_idx" ON "Session"("deadlockStartedAt", "deadlockEndedAt");

-- CreateIndex
CREATE INDEX "Session_successorOpenedAt_renegotiationLatencyMs_idx" ON "Session"("successorOpenedAt", "renegotiationLatencyMs");

-- CreateIndex
CREATE INDEX "Session_fBoundary_lastEventAt_idx" ON "Session"("fBoundary", "lastEventAt");

-- CreateIndex
CREATE INDEX "Session_fNaiveResume_lastEventAt_idx" ON "Session"("fNaiveResume", "lastEventAt");

-- CreateIndex
CREATE INDEX "Session_fDualNegotiation_lastEventAt_idx" ON "Session"("fDualNegotiation", "lastEventAt");

-- CreateIndex
CREATE INDEX "Rollup_minute_idx" ON "Rollup"("minute");

-- CreateIndex
CREATE INDEX "DeadLetter_receivedAt_idx" ON "DeadLetter"("receivedAt");

-- CreateIndex
CREATE INDEX "DeadLetter_server_receivedAt_idx" ON "DeadLetter"("server", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "OperatorToken_tokenHash_key" ON "OperatorToken"("tokenHash");

-- AddForeignKey
ALTER TABLE "ServerSecret" ADD CONSTRAINT "ServerSecret_serverName_fkey" FOREIGN KEY ("serverName") REFERENCES "Server"("name") ON DELETE CASCADE ON UPDATE CASCADE;
