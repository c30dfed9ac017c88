// Session list filters: parsing from query parameters and the portable SQL they turn into.
import { ApiError } from '@/lib/http/api-error';
import type { Provider } from '@/lib/db/config';
import { SESSION_FLAGS, SESSION_STATES, type SessionFlag, type SessionState } from '@/lib/contract/summary';
import { SESSION_SORTS, type TSessionSort } from '@/lib/contract/api/sessions';
import { SESSION_FLAG_COLUMN } from '@/lib/store/session-row';
import { manyParam, parseLimit, parseOpenRange } from './query-params';

export interface SessionFilter {
  servers: string[];
  states: SessionState[];
  /** All must hold (AND). */
  flags: SessionFlag[];
  /** Whole token or prefix. */
  token: string | null;
  /** Sessions active in [fromMs, toMs): lastEventAt ≥ from and firstEventAt < to. Null = any time. */
  fromMs: number | null;
  toMs: number | null;
  nowMs: number;
  thresholdMs: number;
}

export interface SessionQuery {
  filter: SessionFilter;
  sort: TSessionSort;
  limit: number;
  cursor: string | null;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

export function parseSessionQuery(params: URLSearchParams, nowMs: number, thresholdMs: number): SessionQuery {
  const flags = manyParam(params, 'flag');
  for (const f of flags) {
    if (!(SESSION_FLAGS as readonly string[]).includes(f)) {
      throw new ApiError(400, 'invalid_flag', `flag=${JSON.stringify(f)} is not one of ${SESSION_FLAGS.join(', ')}`);
    }
  }
  const states = manyParam(params, 'state');
  for (const s of states) {
    if (!(SESSION_STATES as readonly string[]).includes(s)) {
      throw new ApiError(400, 'invalid_state', `state=${JSON.stringify(s)} is not one of ${SESSION_STATES.join(', ')}`);
    }
  }
  const servers = manyParam(params, 'server');
  for (const s of servers) if (s.length > 128) throw new ApiError(400, 'invalid_server', 'server must be at most 128 characters');
  const token = params.get('token')?.trim() || null;
  if (token !== null && token.length > 256) throw new ApiError(400, 'invalid_token', 'token must be at most 256 characters');

  const { fromMs, toMs } = parseOpenRange(params, nowMs);

  const sortParam = params.get('sort')?.trim() || '-lastEventAt';
  if (!(SESSION_SORTS as readonly string[]).includes(sortParam)) {
    throw new ApiError(400, 'invalid_sort', `sort=${JSON.stringify(sortParam)} is not one of ${SESSION_SORTS.join(', ')}`);
  }
  const limit = parseLimit(params, DEFAULT_LIMIT, MAX_LIMIT);
  return {
    filter: { servers, states: states as SessionState[], flags: flags as SessionFlag[], token, fromMs, toMs, nowMs, thresholdMs },
    sort: sortParam as TSessionSort,
    limit,
    cursor: params.get('cursor') || null,
  };
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
  if (f.states.length) {
    where.push(`"state" IN (${f.states.map(() => '?').join(', ')})`);
    params.push(...f.states);
  }
  for (const flag of new Set(f.flags)) {
    if (flag === 'deadlock') {
      // Every deadlock (ended or not) has a start, so this can use the deadlockStartedAt index.
      where.push('("deadlockStartedAt" IS NOT NULL AND ("deadlockEndedAt" IS NOT NULL OR "deadlockStartedAt" <= ?))');
      params.push(f.nowMs - f.thresholdMs);
    } else {
      where.push(`"${SESSION_FLAG_COLUMN[flag]}" = 1`);
    }
  }
  if (f.token !== null) {
    // The range narrows through the index; substr (not LIKE: exact and case-sensitive on both, no
    // escaping) decides. Bytewise order is SQLite's default (BINARY); PostgreSQL's is the
    // database's collation, so the comparison names "C" and uses Session_token_c_idx.
    const c = provider === 'postgresql' ? ' COLLATE "C"' : '';
    where.push(`"token"${c} >= ? AND "token"${c} <= ? AND substr("token", 1, ?) = ?`);
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
