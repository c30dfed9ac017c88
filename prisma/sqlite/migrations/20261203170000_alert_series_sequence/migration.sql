-- Issue 23, notifications. A rule is evaluated per server ("series": the server's name), so each
-- server has its own state, and a rule for all servers fires per server. Every transition of one
-- alert (rule and series) carries an increasing "sequence" (the state row's version when it was
-- written), copied to its deliveries with the "alertKey" (rule id and series): a newer transition
-- marks the older unsent deliveries of the same alert to the same contact point "superseded".
-- Existing states keep their rule's server as their series; those of rules for all servers get
-- series '' and are stepped once with no data (lib/alerts/evaluate-alerts.ts), so a firing one resolves.
CREATE TABLE "AlertState_new" (
    "ruleId" TEXT NOT NULL,
    "series" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "since" BIGINT NOT NULL,
    "activeSince" BIGINT,
    "value" REAL,
    "evaluatedAt" BIGINT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY ("ruleId", "series")
);
INSERT INTO "AlertState_new" ("ruleId", "series", "state", "since", "activeSince", "value", "evaluatedAt", "version")
SELECT s."ruleId", COALESCE(r."server", ''), s."state", s."since", s."activeSince", s."value", s."evaluatedAt", s."version"
  FROM "AlertState" s LEFT JOIN "AlertRule" r ON r."id" = s."ruleId";
DROP TABLE "AlertState";
ALTER TABLE "AlertState_new" RENAME TO "AlertState";

ALTER TABLE "AlertTransition" ADD COLUMN "series" TEXT NOT NULL DEFAULT '';
ALTER TABLE "AlertTransition" ADD COLUMN "sequence" INTEGER NOT NULL DEFAULT 0;
UPDATE "AlertTransition" SET "series" = COALESCE("server", '');

ALTER TABLE "AlertDelivery" ADD COLUMN "alertKey" TEXT;
ALTER TABLE "AlertDelivery" ADD COLUMN "sequence" INTEGER NOT NULL DEFAULT 0;
CREATE INDEX "AlertDelivery_contactPointId_alertKey_idx" ON "AlertDelivery"("contactPointId", "alertKey");
CREATE INDEX "AlertDelivery_contactPointId_createdAt_idx" ON "AlertDelivery"("contactPointId", "createdAt");
