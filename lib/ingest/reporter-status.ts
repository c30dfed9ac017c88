// What each sender's reporter says it lost before its events reached Doorwatch. Counts are
// cumulative per reporter instance and only grow, so a request that arrives late (a retry of
// an older batch) never lowers them: the upsert keeps the larger value (CASE, portable SQL).
import type { SqlExecutor } from '@/lib/db/sql';
import type { ReporterStatus } from '@/lib/contract/ingest-envelope';

const larger = (col: string) => `CASE WHEN excluded."${col}" > "ReporterStatus"."${col}" THEN excluded."${col}" ELSE "ReporterStatus"."${col}" END`;

export async function storeReporterStatus(sql: SqlExecutor, server: string, r: ReporterStatus, now: number): Promise<void> {
  await sql.execute(
    `INSERT INTO "ReporterStatus" ("server", "instance", "dropped", "failed", "firstSeenAt", "lastSeenAt") VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT ("server", "instance") DO UPDATE SET
       "dropped" = ${larger('dropped')}, "failed" = ${larger('failed')}, "lastSeenAt" = ${larger('lastSeenAt')}`,
    [server, r.instance, r.dropped, r.failed, now, now],
  );
}
