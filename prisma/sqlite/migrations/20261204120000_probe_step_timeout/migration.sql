-- Issue 27: each probe target's step deadline (lib/probes/run-probe.ts stepTimeoutMs), so a server that
-- offers its upgrade seconds after opening is probed to a verdict instead of "inconclusive".
ALTER TABLE "ProbeTarget" ADD COLUMN "stepTimeoutMs" INTEGER NOT NULL DEFAULT 20000;
