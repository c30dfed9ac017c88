-- Issue 14: the overview's percentiles must not read more as the table grows. "LatencyHistogram"
-- cells are per server and minute, about as sparse as the sessions themselves, so summing them over
-- a day still grew with the samples in it. "LatencyHistogramQuarter" holds the same log-scale
-- buckets per quarter hour over all servers ("minute" = the quarter's first minute, no server
-- column): written with LatencyHistogram by the same delta (lib/store/rollups.ts), read for whole
-- quarters when no server filter is given (lib/store/rollups.ts histogramSums). Backfilled from
-- LatencyHistogram (cells whose counts cancel out are left out, as the writer leaves them).

CREATE TABLE "LatencyHistogramQuarter" (
    "minute" BIGINT NOT NULL,
    "metric" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY ("minute", "metric", "bucket")
) WITHOUT ROWID;

INSERT INTO "LatencyHistogramQuarter" ("minute", "metric", "bucket", "count")
SELECT ("minute" / 900000) * 900000, "metric", "bucket", SUM("count")
  FROM "LatencyHistogram"
 GROUP BY ("minute" / 900000) * 900000, "metric", "bucket"
HAVING SUM("count") <> 0;
