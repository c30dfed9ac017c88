-- Issue 23, notifications. A rule is evaluated per server ("series": the server's name), so each
-- server has its own state, and a rule for all servers fires per server. Every transition of one
-- alert (rule and series) carries an increasing "sequence" (the state row's version when it was
-- written), copied to its deliveries with the "alertKey" (rule id and series): a newer transition
-- marks the older unsent deliveries of the same alert to the same contact point "superseded".
-- Existing states keep their rule's server as their series; those of rules for all servers get
-- series '' and are stepped once with no data (lib/alerts/evaluate-alerts.ts), so a firing one resolves.
ALTER TABLE "AlertState" ADD COLUMN "series" TEXT NOT NULL DEFAULT '';
UPDATE "AlertState" s SET "series" = r."server" FROM "AlertRule" r WHERE r."id" = s."ruleId" AND r."server" IS NOT NULL;
ALTER TABLE "AlertState" DROP CONSTRAINT "AlertState_pkey";
ALTER TABLE "AlertState" ADD CONSTRAINT "AlertState_pkey" PRIMARY KEY ("ruleId", "series");
ALTER TABLE "AlertState" ALTER COLUMN "series" DROP DEFAULT;

ALTER TABLE "AlertTransition" ADD COLUMN "series" TEXT NOT NULL DEFAULT '';
ALTER TABLE "AlertTransition" ADD COLUMN "sequence" INTEGER NOT NULL DEFAULT 0;
UPDATE "AlertTransition" SET "series" = COALESCE("server", '');

ALTER TABLE "AlertDelivery" ADD COLUMN "alertKey" TEXT;
ALTER TABLE "AlertDelivery" ADD COLUMN "sequence" INTEGER NOT NULL DEFAULT 0;
CREATE INDEX "AlertDelivery_contactPointId_alertKey_idx" ON "AlertDelivery"("contactPointId", "alertKey");
CREATE INDEX "AlertDelivery_contactPointId_createdAt_idx" ON "AlertDelivery"("contactPointId", "createdAt");
