-- Alert rules, contact points, rule states, transitions (history) and the delivery outbox (lib/store/alert-*.ts).
CREATE TABLE "AlertRule" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "measure" TEXT NOT NULL,
    "comparison" TEXT NOT NULL,
    "threshold" REAL NOT NULL,
    "windowMs" BIGINT NOT NULL,
    "forMs" BIGINT NOT NULL,
    "server" TEXT,
    "enabled" INTEGER NOT NULL DEFAULT 1,
    "createdAt" BIGINT NOT NULL,
    "updatedAt" BIGINT NOT NULL,
    PRIMARY KEY ("id")
);

CREATE TABLE "AlertContactPoint" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "createdAt" BIGINT NOT NULL,
    PRIMARY KEY ("id")
);

CREATE TABLE "AlertRuleContact" (
    "ruleId" TEXT NOT NULL,
    "contactPointId" TEXT NOT NULL,
    PRIMARY KEY ("ruleId", "contactPointId")
);
CREATE INDEX "AlertRuleContact_contactPointId_idx" ON "AlertRuleContact"("contactPointId");

CREATE TABLE "AlertState" (
    "ruleId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "since" BIGINT NOT NULL,
    "activeSince" BIGINT,
    "value" REAL,
    "evaluatedAt" BIGINT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY ("ruleId")
);

CREATE TABLE "AlertTransition" (
    "id" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "ruleName" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "at" BIGINT NOT NULL,
    "value" REAL,
    "measure" TEXT NOT NULL,
    "comparison" TEXT NOT NULL,
    "threshold" REAL NOT NULL,
    "windowMs" BIGINT NOT NULL,
    "server" TEXT,
    PRIMARY KEY ("id")
);
CREATE INDEX "AlertTransition_at_idx" ON "AlertTransition"("at");
CREATE INDEX "AlertTransition_ruleId_at_idx" ON "AlertTransition"("ruleId", "at");

CREATE TABLE "AlertDelivery" (
    "id" TEXT NOT NULL,
    "transitionId" TEXT NOT NULL,
    "contactPointId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" BIGINT NOT NULL,
    "lastAttemptAt" BIGINT,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "body" TEXT NOT NULL,
    "createdAt" BIGINT NOT NULL,
    "deliveredAt" BIGINT,
    PRIMARY KEY ("id")
);
CREATE INDEX "AlertDelivery_status_nextAttemptAt_idx" ON "AlertDelivery"("status", "nextAttemptAt");
CREATE INDEX "AlertDelivery_transitionId_idx" ON "AlertDelivery"("transitionId");
CREATE INDEX "AlertDelivery_createdAt_idx" ON "AlertDelivery"("createdAt");

-- The rules every installation starts with (edit or disable them; deleted ones stay deleted):
-- an ongoing deadlock for 30 s, any naive resume in 5 minutes, any dual negotiation in 5 minutes.
INSERT INTO "AlertRule" ("id", "name", "measure", "comparison", "threshold", "windowMs", "forMs", "server", "enabled", "createdAt", "updatedAt") VALUES
    ('default-deadlock-ongoing', 'Ongoing deadlock', 'deadlocks_ongoing', 'gt', 0, 900000, 30000, NULL, 1, 1796086800000, 1796086800000),
    ('default-naive-resume', 'Naive resume', 'naive_resumes', 'gt', 0, 300000, 0, NULL, 1, 1796086800000, 1796086800000),
    ('default-dual-negotiation', 'Dual negotiation', 'dual_negotiations', 'gt', 0, 300000, 0, NULL, 1, 1796086800000, 1796086800000);
