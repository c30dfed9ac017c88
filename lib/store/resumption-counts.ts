// Resumption health summed over stored sessions (Session's resumption columns and the flags text),
// per server for the verdicts and over a range for stats. Sessions count where they ended up:
// a range takes the sessions whose last event falls in it.
import type { Db } from '@/lib/db/client';
import type { TResumptionCounts } from '@/lib/contract/api/resumption-counts';

/** Resumption flags counted as sessions, read from the shared "flags" text (lib/store/session-row.ts). */
const FLAG_SESSIONS = [
  ['conflictSessions', 'resume_conflict'],
  ['endedSessionResumes', 'resume_after_end'],
  ['unknownCursorSessions', 'unknown_cursor'],
  ['abandonedSessions', 'abandoned'],
] as const;
const SUMMED = ['checkedResumes', 'lossyResumes', 'idleResumes', 'rejectedResumes'] as const;

export const NO_RESUMPTION: TResumptionCounts = {
  checkedResumes: 0,
  lossyResumes: 0,
  idleResumes: 0,
  rejectedResumes: 0,
  conflictSessions: 0,
  endedSessionResumes: 0,
  unknownCursorSessions: 0,
  abandonedSessions: 0,
};

const total = (expr: string, as: string) => `COALESCE(CAST(SUM(${expr}) AS BIGINT), 0) AS "${as}"`;

export interface ResumptionScope {
  /** Only sessions whose lastEventAt is in [fromMs, toMs). */
  range?: { fromMs: number; toMs: number };
  server?: string | null;
}

/** Counts per server (servers without sessions are absent). */
export async function resumptionCounts(db: Pick<Db, 'sql'>, scope: ResumptionScope = {}): Promise<Map<string, TResumptionCounts>> {
  const where: string[] = [];
  const params: unknown[] = FLAG_SESSIONS.map(([, flag]) => `% ${flag} %`);
  if (scope.range) {
    where.push('"lastEventAt" >= ? AND "lastEventAt" < ?');
    params.push(scope.range.fromMs, scope.range.toMs);
  }
  if (scope.server) {
    where.push('"server" = ?');
    params.push(scope.server);
  }
  const rows = await db.sql.query<Record<string, number | string>>(
    `SELECT "server", ${SUMMED.map((c) => total(`"${c}"`, c)).join(', ')},
            ${FLAG_SESSIONS.map(([k]) => total(`CASE WHEN (' ' || "flags" || ' ') LIKE ? THEN 1 ELSE 0 END`, k)).join(', ')}
       FROM "Session"${where.length ? ` WHERE ${where.join(' AND ')}` : ''} GROUP BY "server"`,
    params,
  );
  const out = new Map<string, TResumptionCounts>();
  for (const row of rows) {
    const counts = { ...NO_RESUMPTION };
    for (const k of Object.keys(counts) as (keyof TResumptionCounts)[]) counts[k] = Number(row[k] ?? 0);
    out.set(String(row.server), counts);
  }
  return out;
}
