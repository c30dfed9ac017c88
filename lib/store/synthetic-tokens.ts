// The "SyntheticToken" table: session tokens a door probe opened, recorded under the probed
// server. Ingest (store-batch) looks the touched tokens up here by token alone, so a probe's
// session is marked synthetic whoever reports it — the probe's own events, the probed server's
// reporter, or the same server registered under another name — before or after the probe finished.
import { insertRows, type ColumnSpec, type RowsInsert, type SqlExecutor } from '@/lib/db/sql';
import { TABLE, TABLE_SQL, chunks, placeholders } from './tables';

const SYNTHETIC_TOKEN_COLUMNS: readonly ColumnSpec[] = [
  { name: 'server', type: 'text' },
  { name: 'token', type: 'text' },
  { name: 'runId', type: 'text' },
  { name: 'createdAt', type: 'bigint' },
];

/** The insert of a probe's tokens, run alone (recordSyntheticTokens) or inside ingest's first statement (lib/store/ingest-statements.ts). */
export function syntheticTokenInsert(server: string, tokens: readonly string[], runId: string, now: number): RowsInsert {
  return {
    table: TABLE.syntheticToken,
    columns: SYNTHETIC_TOKEN_COLUMNS,
    rows: [...new Set(tokens)].map((t) => [server, t, runId, now]),
    tail: 'ON CONFLICT ("server", "token") DO NOTHING',
  };
}

export async function recordSyntheticTokens(
  tx: SqlExecutor,
  server: string,
  tokens: readonly string[],
  runId: string,
  now: number,
): Promise<void> {
  await insertRows(tx, syntheticTokenInsert(server, tokens, runId, now));
}

/** Which of these tokens a probe opened, on whichever server it recorded them. */
export async function syntheticTokensAmong(tx: SqlExecutor, tokens: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of chunks([...new Set(tokens)])) {
    const rows = await tx.query<{ token: string }>(
      `SELECT DISTINCT "token" FROM ${TABLE_SQL.syntheticToken} WHERE "token" IN (${placeholders(part.length)})`,
      part,
    );
    for (const r of rows) out.add(r.token);
  }
  return out;
}

/** Retention: up to `limit` records older than `cutoff` (the sessions keep their flag). */
export function deleteSyntheticTokensBefore(tx: SqlExecutor, cutoff: number, limit: number): Promise<number> {
  return tx.execute(
    `DELETE FROM ${TABLE_SQL.syntheticToken} WHERE ("server", "token") IN (SELECT "server", "token" FROM ${TABLE_SQL.syntheticToken} WHERE "createdAt" < ? LIMIT ?)`,
    [cutoff, limit],
  );
}
