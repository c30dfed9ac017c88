-- Token prefix search compares bytewise, which is SQLite's default collation (BINARY): the
-- existing Session_token_idx already serves the range. Nothing to change; kept so both providers
-- share one migration history (lib/queries/session-filter.ts).
SELECT 1;
