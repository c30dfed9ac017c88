-- Issue 23: a probe's token marks its session synthetic whoever reports it, also under another
-- server name, so ingest looks "SyntheticToken" up by token alone (lib/store/synthetic-tokens.ts).
CREATE INDEX "SyntheticToken_token_idx" ON "SyntheticToken"("token");
