-- Refused ingest requests per server, reason and minute (lib/store/ingest-rejections.ts).
-- Requests naming an unknown server share one bucket (server = '*unknown*') that keeps the last names seen.
CREATE TABLE "IngestRejection" (
    "server" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "minute" BIGINT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "lastAt" BIGINT NOT NULL,
    "lastSkewMs" BIGINT,
    "lastNames" TEXT,
    CONSTRAINT "IngestRejection_pkey" PRIMARY KEY ("server","reason","minute")
);
CREATE INDEX "IngestRejection_minute_idx" ON "IngestRejection"("minute");

-- Latency sums and the 50 ms renegotiation bucket, so /metrics can expose full Prometheus histograms.
ALTER TABLE "Rollup" ADD COLUMN "refusalLatencyMsSum" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "renegUnder50ms" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Rollup" ADD COLUMN "renegLatencyMsSum" BIGINT NOT NULL DEFAULT 0;
