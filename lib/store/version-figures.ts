// The compare reads of one server version's sessions (lib/queries/server-versions.ts decides what
// they mean): outcome counts, and refusal and renegotiation latencies as (value, count) rows, one
// per distinct latency (exact percentiles without a row per session). Probe sessions are left out.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL } from './tables';

export interface VersionRows {
  outcomes: { outcome: string | null; n: number }[];
  renegotiated: number;
  refusal: { value: number; count: number }[];
  renegotiation: { value: number; count: number }[];
}

const WHERE = `"server" = ? AND "version" = ? AND "synthetic" = 0`;

export async function versionRows(sql: SqlExecutor, server: string, version: string): Promise<VersionRows> {
  const p = [server, version];
  const [outcomes, reneg, refusal, renegotiation] = await Promise.all([
    sql.query<{ outcome: string | null; n: unknown }>(
      `SELECT "boundaryOutcome" AS "outcome", COUNT(*) AS "n" FROM ${TABLE_SQL.session} WHERE ${WHERE} GROUP BY "boundaryOutcome"`,
      p,
    ),
    sql.query<{ n: unknown }>(`SELECT COUNT(*) AS "n" FROM ${TABLE_SQL.session} WHERE ${WHERE} AND "fRenegotiated" = 1`, p),
    sql.query<{ value: unknown; count: unknown }>(
      `SELECT "refusalLatencyMs" AS "value", COUNT(*) AS "count" FROM ${TABLE_SQL.session}
        WHERE ${WHERE} AND "boundaryOutcome" = 'refused' AND "refusalLatencyMs" IS NOT NULL GROUP BY "refusalLatencyMs"`,
      p,
    ),
    sql.query<{ value: unknown; count: unknown }>(
      `SELECT "renegotiationLatencyMs" AS "value", COUNT(*) AS "count" FROM ${TABLE_SQL.session}
        WHERE ${WHERE} AND "renegotiationLatencyMs" IS NOT NULL GROUP BY "renegotiationLatencyMs"`,
      p,
    ),
  ]);
  const counted = (rows: { value: unknown; count: unknown }[]) => rows.map((r) => ({ value: Number(r.value), count: Number(r.count) }));
  return {
    outcomes: outcomes.map((r) => ({ outcome: r.outcome, n: Number(r.n) })),
    renegotiated: Number(reneg[0]?.n ?? 0),
    refusal: counted(refusal),
    renegotiation: counted(renegotiation),
  };
}
