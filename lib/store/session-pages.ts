// The session list's reads: a filter's WHERE conditions, one keyset page in a sort order, and the
// capped count of the matching rows. lib/queries decides the filter and the cursor; the SQL is here.
import type { Provider } from '@/lib/config/database-url';
import type { SqlExecutor } from '@/lib/db/sql';
import type { DeadlockStatus, SessionFlag, SessionState } from '@/lib/contract/summary';
import { endUnreportedUpTo } from '@/lib/boundary/deadlock-as-of';
import type { ResumptionFlag } from '@/lib/contract/resumption';
import { SESSION_TOTAL_CAP, type TSessionSort, type TSyntheticFilter } from '@/lib/contract/api/sessions';
import { countUpTo, type CappedTotal } from './capped-count';
import { SESSION_FLAG_COLUMN, type SessionRow } from './session-row';
import { TABLE_SQL } from './tables';
import { sessionTokenTerm } from './session-token-term';

/** Which sessions a list shows. */
export interface SessionFilter {
  servers: string[];
  states: SessionState[];
  /** All must hold (AND). */
  flags: (SessionFlag | ResumptionFlag)[];
  /** The deadlock as read at `nowMs` (any of); absent or empty = any session. */
  deadlocks?: DeadlockStatus[];
  /** Whole token or prefix. */
  token: string | null;
  /** Sessions active in [fromMs, toMs): lastEventAt ≥ from and firstEventAt < to. Null = any time. */
  fromMs: number | null;
  toMs: number | null;
  nowMs: number;
  thresholdMs: number;
  /** DOORWATCH_DEADLOCK_MAX_MS: the views' `deadlock.ongoing` (an end-unreported one still has the deadlock flag). */
  maxMs: number;
  /** Door-probe sessions: include, exclude or only them. Absent = include. */
  synthetic?: TSyntheticFilter;
  /** The versions that served them (any of); absent or empty = any. */
  versions?: string[];
}

export interface SqlFragment {
  where: string[];
  params: unknown[];
}

// Every token that starts with a prefix sorts (bytewise) between the prefix and the prefix followed
// by 256 of the highest code point (tokens are at most 256 characters): a range the token index
// can serve, where substr alone scans every session (56 ms → 0.09 ms at 100k sessions here).
const TOKEN_RANGE_TOP = '\u{10FFFF}'.repeat(256);

/** WHERE conditions (AND-ed) for a filter; identifiers quoted for PostgreSQL. */
export function filterSql(f: SessionFilter, provider: Provider): SqlFragment {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.servers.length) {
    where.push(`"server" IN (${f.servers.map(() => '?').join(', ')})`);
    params.push(...f.servers);
  }
  if (f.versions?.length) {
    where.push(`"version" IN (${f.versions.map(() => '?').join(', ')})`);
    params.push(...f.versions);
  }
  if (f.synthetic === 'exclude') where.push('"synthetic" = 0');
  if (f.synthetic === 'only') where.push('"synthetic" = 1');
  if (f.states.length) {
    where.push(`"state" IN (${f.states.map(() => '?').join(', ')})`);
    params.push(...f.states);
  }
  for (const flag of new Set(f.flags)) {
    if (flag === 'deadlock') {
      // Every deadlock (ended or not) has a start, so this can use the deadlockStartedAt index.
      where.push('("deadlockStartedAt" IS NOT NULL AND ("deadlockEndedAt" IS NOT NULL OR "deadlockStartedAt" <= ?))');
      params.push(f.nowMs - f.thresholdMs);
    } else if (flag in SESSION_FLAG_COLUMN) {
      where.push(`"${SESSION_FLAG_COLUMN[flag as keyof typeof SESSION_FLAG_COLUMN]}" = 1`);
    } else {
      // Resumption flags are rare: read from the stored flags text (words of [a-z_], no LIKE escaping).
      where.push(`(' ' || "flags" || ' ') LIKE ?`);
      params.push(`% ${flag} %`);
    }
  }
  if (f.deadlocks?.length) where.push(deadlockStatusSql(f, f.deadlocks, params));
  if (f.token !== null) {
    // The range narrows through the token index, bytewise on both (session-token-term.ts); substr
    // (not LIKE: exact and case-sensitive on both, no escaping) decides.
    const token = sessionTokenTerm(provider);
    where.push(`${token} >= ? AND ${token} <= ? AND substr("token", 1, ?) = ?`);
    // substr counts characters (code points) on both databases; JS length counts UTF-16 units.
    params.push(f.token, f.token + TOKEN_RANGE_TOP, [...f.token].length, f.token);
  }
  if (f.fromMs !== null) {
    where.push('"lastEventAt" >= ?');
    params.push(f.fromMs);
  }
  if (f.toMs !== null) {
    where.push('"firstEventAt" < ?');
    params.push(f.toMs);
  }
  return { where, params };
}

/**
 * Sessions whose deadlock reads as any of `statuses` at the filter's clock, the SQL of
 * lib/boundary/deadlock-as-of.ts: ongoing is what the stats' "stuck now" counts (lib/store/session-stats.ts).
 */
function deadlockStatusSql(f: SessionFilter, statuses: DeadlockStatus[], params: unknown[]): string {
  const cutoff = f.nowMs - f.thresholdMs;
  const upTo = endUnreportedUpTo(f.nowMs, f.maxMs);
  const any: string[] = [];
  for (const status of new Set(statuses)) {
    if (status === 'ended') {
      any.push('"deadlockEndedAt" IS NOT NULL');
    } else if (status === 'ongoing') {
      any.push('("deadlockEndedAt" IS NULL AND "deadlockStartedAt" <= ? AND "deadlockStartedAt" > ?)');
      params.push(cutoff, upTo);
    } else {
      // At least the threshold and the maximum old (the maximum, when set, is above the threshold).
      any.push('("deadlockEndedAt" IS NULL AND "deadlockStartedAt" <= ? AND "deadlockStartedAt" <= ?)');
      params.push(cutoff, upTo);
    }
  }
  return `("deadlockStartedAt" IS NOT NULL AND (${any.join(' OR ')}))`;
}

/** The sort's column and direction. */
export function sortParts(sort: TSessionSort): { column: 'lastEventAt' | 'firstEventAt'; desc: boolean } {
  return { column: sort.replace('-', '') as 'lastEventAt' | 'firstEventAt', desc: sort.startsWith('-') };
}

/** Where the previous page ended: its last row's sort key, server and token. */
export interface PageStart {
  key: number;
  server: string;
  token: string;
}

/** Up to `limit` sessions matching the filter in the sort's order, strictly after `after` when given. */
export function sessionPage(
  sql: SqlExecutor,
  filter: SessionFilter,
  sort: TSessionSort,
  limit: number,
  after: PageStart | null,
): Promise<SessionRow[]> {
  const { where, params } = filterSql(filter, sql.provider);
  const { column, desc } = sortParts(sort);
  if (after) {
    // Row-value comparison (SQLite ≥ 3.15, PostgreSQL): strictly after the last row of the previous page.
    where.push(`("${column}", "server", "token") ${desc ? '<' : '>'} (?, ?, ?)`);
    params.push(after.key, after.server, after.token);
  }
  const dir = desc ? 'DESC' : 'ASC';
  const text =
    `SELECT * FROM ${TABLE_SQL.session}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}` +
    ` ORDER BY "${column}" ${dir}, "server" ${dir}, "token" ${dir} LIMIT ?`;
  return sql.query<SessionRow>(text, [...params, limit]);
}

/**
 * The next moment the reader's clock alone changes the filter's rows: an unended naive resume reaching
 * the threshold (it becomes a deadlock, gains the flag, enters `deadlock=ongoing`), or an ongoing one
 * reaching the maximum (end unreported). Null when none will. The filter's deadlock conditions are left
 * out, since they are what changes. Both walk the deadlockStartedAt index from the cutoff.
 */
export async function nextClockChange(sql: SqlExecutor, f: SessionFilter): Promise<number | null> {
  const { where, params } = filterSql({ ...f, flags: f.flags.filter((x) => x !== 'deadlock'), deadlocks: [] }, sql.provider);
  const cutoff = f.nowMs - f.thresholdMs;
  const first = async (extra: string, extraParams: number[]) => {
    const conds = [...where, '"deadlockStartedAt" IS NOT NULL', '"deadlockEndedAt" IS NULL', extra];
    const [row] = await sql.query<{ first: number | string | null }>(
      `SELECT MIN("deadlockStartedAt") AS "first" FROM ${TABLE_SQL.session} WHERE ${conds.join(' AND ')}`,
      [...params, ...extraParams],
    );
    return row?.first === null || row?.first === undefined ? null : Number(row.first);
  };
  const [candidate, ongoing] = await Promise.all([
    first('"deadlockStartedAt" > ?', [cutoff]),
    f.maxMs > 0 ? first('"deadlockStartedAt" <= ? AND "deadlockStartedAt" > ?', [cutoff, endUnreportedUpTo(f.nowMs, f.maxMs)]) : null,
  ]);
  const moments = [...(candidate === null ? [] : [candidate + f.thresholdMs]), ...(ongoing === null ? [] : [ongoing + f.maxMs])];
  return moments.length ? Math.min(...moments) : null;
}

/** How many sessions match the filter, up to the cap. */
export function countSessions(sql: SqlExecutor, filter: SessionFilter): Promise<CappedTotal> {
  const { where, params } = filterSql(filter, sql.provider);
  return countUpTo(sql, TABLE_SQL.session, where, params, SESSION_TOTAL_CAP);
}
