// The "SyntheticToken" table: session tokens a door probe opened, per server. Ingest (store-batch)
// looks the touched tokens up here, so a probe's session is marked synthetic whoever reports it:
// the probe's own events or the probed server's reporter, before or after the probe finished.
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

/** Which of these tokens of `server` a probe opened. */
export async function syntheticTokensOf(tx: SqlExecutor, server: string, tokens: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of chunks([...new Set(tokens)])) {
    const rows = await tx.query<{ token: string }>(
      `SELECT "token" FROM ${TABLE_SQL.syntheticToken} WHERE "server" = ? AND "token" IN (${placeholders(part.length)})`,
      [server, ...part],
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
