-- Refusal-latency histogram in the per-minute rollups: one counter per bucket, anchored like
-- "refused" at the answer's minute. Existing rollups are backfilled from the Session rows.

ALTER TABLE "Rollup" ADD COLUMN "refusedLt10ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "refusedLt25ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "refusedLt50ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "refusedLt100ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "refusedLt200ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "refusedLt500ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "refusedLt1000ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "refusedLt2000ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "refusedLt5000ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "refusedGe5000ms" INTEGER NOT NULL DEFAULT 0;

UPDATE "Rollup" SET
    "refusedLt10ms" = "h"."refusedLt10ms",
    "refusedLt25ms" = "h"."refusedLt25ms",
    "refusedLt50ms" = "h"."refusedLt50ms",
    "refusedLt100ms" = "h"."refusedLt100ms",
    "refusedLt200ms" = "h"."refusedLt200ms",
    "refusedLt500ms" = "h"."refusedLt500ms",
    "refusedLt1000ms" = "h"."refusedLt1000ms",
    "refusedLt2000ms" = "h"."refusedLt2000ms",
    "refusedLt5000ms" = "h"."refusedLt5000ms",
    "refusedGe5000ms" = "h"."refusedGe5000ms"
FROM (
    SELECT "server", ("answeredAt" / 60000) * 60000 AS "minute",
           SUM(CASE WHEN "refusalLatencyMs" < 10 THEN 1 ELSE 0 END) AS "refusedLt10ms",
           SUM(CASE WHEN "refusalLatencyMs" >= 10 AND "refusalLatencyMs" < 25 THEN 1 ELSE 0 END) AS "refusedLt25ms",
           SUM(CASE WHEN "refusalLatencyMs" >= 25 AND "refusalLatencyMs" < 50 THEN 1 ELSE 0 END) AS "refusedLt50ms",
           SUM(CASE WHEN "refusalLatencyMs" >= 50 AND "refusalLatencyMs" < 100 THEN 1 ELSE 0 END) AS "refusedLt100ms",
           SUM(CASE WHEN "refusalLatencyMs" >= 100 AND "refusalLatencyMs" < 200 THEN 1 ELSE 0 END) AS "refusedLt200ms",
           SUM(CASE WHEN "refusalLatencyMs" >= 200 AND "refusalLatencyMs" < 500 THEN 1 ELSE 0 END) AS "refusedLt500ms",
           SUM(CASE WHEN "refusalLatencyMs" >= 500 AND "refusalLatencyMs" < 1000 THEN 1 ELSE 0 END) AS "refusedLt1000ms",
           SUM(CASE WHEN "refusalLatencyMs" >= 1000 AND "refusalLatencyMs" < 2000 THEN 1 ELSE 0 END) AS "refusedLt2000ms",
           SUM(CASE WHEN "refusalLatencyMs" >= 2000 AND "refusalLatencyMs" < 5000 THEN 1 ELSE 0 END) AS "refusedLt5000ms",
           SUM(CASE WHEN "refusalLatencyMs" >= 5000 THEN 1 ELSE 0 END) AS "refusedGe5000ms"
      FROM "Session"
     WHERE "boundaryOutcome" = 'refused' AND "answeredAt" IS NOT NULL AND "refusalLatencyMs" IS NOT NULL
     GROUP BY "server", ("answeredAt" / 60000) * 60000
) AS "h"
WHERE "Rollup"."server" = "h"."server" AND "Rollup"."minute" = "h"."minute";
