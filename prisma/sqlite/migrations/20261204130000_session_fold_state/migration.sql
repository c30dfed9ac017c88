-- Issue 26: each session keeps its fold (lib/boundary/fold-state.ts), so a batch whose events come
-- after the last one folded carries it on instead of re-reading the whole stored timeline. Rows
-- written before have none: their next batch folds the timeline once and stores it.
ALTER TABLE "Session" ADD COLUMN "foldState" TEXT;
