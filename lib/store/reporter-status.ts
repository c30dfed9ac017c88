// The "ReporterStatus" table: what each sender's reporter says it lost before its events reached
// Doorwatch. Counts are cumulative per reporter instance and only grow, so a request that arrives
// late (a retry of an older batch) never lowers them: the upsert keeps the larger value (CASE,
// portable SQL).
import { insertRows, type ColumnSpec, type RowsInsert, type SqlExecutor } from '@/lib/db/sql';
import type { ReporterStatus } from '@/lib/contract/ingest-envelope';
import { TABLE, TABLE_SQL, sumColumn } from './tables';

const T = TABLE_SQL.reporterStatus;
const larger = (col: string) => `CASE WHEN excluded."${col}" > ${T}."${col}" THEN excluded."${col}" ELSE ${T}."${col}" END`;

const REPORTER_STATUS_COLUMNS: readonly ColumnSpec[] = [
  { name: 'server', type: 'text' },
  { name: 'instance', type: 'text' },
  { name: 'dropped', type: 'bigint' },
  { name: 'failed', type: 'bigint' },
  { name: 'firstSeenAt', type: 'bigint' },
  { name: 'lastSeenAt', type: 'bigint' },
];

/** The upsert of one report, run alone (storeReporterStatus) or inside ingest's first statement (lib/store/ingest-statements.ts). */
export function reporterStatusInsert(server: string, r: ReporterStatus, now: number): RowsInsert {
  return {
    table: TABLE.reporterStatus,
    columns: REPORTER_STATUS_COLUMNS,
    rows: [[server, r.instance, r.dropped, r.failed, now, now]],
    tail: `ON CONFLICT ("server", "instance") DO UPDATE SET
       "dropped" = ${larger('dropped')}, "failed" = ${larger('failed')}, "lastSeenAt" = ${larger('lastSeenAt')}`,
  };
}

export async function storeReporterStatus(sql: SqlExecutor, server: string, r: ReporterStatus, now: number): Promise<void> {
  await insertRows(sql, reporterStatusInsert(server, r, now));
}

export interface ReporterLoss {
  instances: number;
  dropped: number;
  failed: number;
  /** Latest report (epoch ms). */
  lastReportAt: number;
}

/** Reporter losses summed over each server's instances. */
export async function reporterLossByServer(sql: SqlExecutor): Promise<Map<string, ReporterLoss>> {
  const rows = await sql.query<{ server: string; instances: unknown; dropped: unknown; failed: unknown; last: unknown }>(
    `SELECT "server", COUNT(*) AS "instances", ${['dropped', 'failed'].map(sumColumn).join(', ')}, MAX("lastSeenAt") AS "last"
       FROM ${T} GROUP BY "server"`,
  );
  return new Map(
    rows.map((r) => [
      r.server,
      { instances: Number(r.instances), dropped: Number(r.dropped), failed: Number(r.failed), lastReportAt: Number(r.last) },
    ]),
  );
}
