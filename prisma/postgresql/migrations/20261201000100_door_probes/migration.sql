-- Door probes (issue 15): targets, runs, and the tokens they opened; sessions learn "synthetic".
ALTER TABLE "Session" ADD COLUMN "synthetic" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "ProbeTarget" (
    "server" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "credentialHeader" TEXT,
    "credentialValue" TEXT,
    "intervalMs" INTEGER NOT NULL DEFAULT 300000,
    "enabled" INTEGER NOT NULL DEFAULT 1,
    "lastRunAt" BIGINT,
    "createdAt" BIGINT NOT NULL,
    "updatedAt" BIGINT NOT NULL,
    CONSTRAINT "ProbeTarget_pkey" PRIMARY KEY ("server")
);

CREATE TABLE "ProbeRun" (
    "id" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "startedAt" BIGINT NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    CONSTRAINT "ProbeRun_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "ProbeRun_server_startedAt_idx" ON "ProbeRun"("server", "startedAt");
CREATE INDEX "ProbeRun_startedAt_idx" ON "ProbeRun"("startedAt");

CREATE TABLE "SyntheticToken" (
    "server" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "createdAt" BIGINT NOT NULL,
    CONSTRAINT "SyntheticToken_pkey" PRIMARY KEY ("server","token")
);
CREATE INDEX "SyntheticToken_createdAt_idx" ON "SyntheticToken"("createdAt");
