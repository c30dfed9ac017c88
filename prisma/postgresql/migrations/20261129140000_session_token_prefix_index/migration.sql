-- Token prefix search compares bytewise (COLLATE "C") so that a prefix is a range whatever the
-- database's collation; this index serves that range (lib/queries/session-filter.ts).
CREATE INDEX "Session_token_c_idx" ON "Session" ("token" COLLATE "C");
