// The session list: one keyset page, or every matching row in pages (for export).
import type { Db } from '@/lib/db/client';
import type { SessionRow } from '@/lib/store/session-row';
import { TABLE_SQL } from '@/lib/store/tables';
import { countUpTo, type CappedTotal } from '@/lib/store/capped-count';
import { SESSION_TOTAL_CAP, type TSessionListResponse, type TSessionSort, type TSessionView } from '@/lib/contract/api/sessions';
import { toIsoMs } from '@/lib/contract/timestamp';
import { decodeCursor, encodeCursor, type SessionCursor } from './session-cursor';
import { filterSql, type SessionFilter, type SessionQuery } from './session-filter';
import { toSessionView } from './session-view';

function sortParts(sort: TSessionSort): { column: 'lastEventAt' | 'firstEventAt'; desc: boolean } {
  return { column: sort.replace('-', '') as 'lastEventAt' | 'firstEventAt', desc: sort.startsWith('-') };
}

async function fetchPage(
  db: Db,
  filter: SessionFilter,
  sort: TSessionSort,
  limit: number,
  after: SessionCursor | null,
): Promise<SessionRow[]> {
  const { where, params } = filterSql(filter, db.sql.provider);
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
  return db.sql.query<SessionRow>(text, [...params, limit]);
}

/** How many sessions match the filter (not the cursor), up to the cap. */
function countMatching(db: Db, filter: SessionFilter): Promise<CappedTotal> {
  const { where, params } = filterSql(filter, db.sql.provider);
  return countUpTo(db.sql, TABLE_SQL.session, where, params, SESSION_TOTAL_CAP);
}

function cursorAfter(row: SessionRow, sort: TSessionSort): SessionCursor {
  const { column } = sortParts(sort);
  return { sort, key: Number(row[column]), server: row.server, token: row.token };
}

export async function listSessions(db: Db, q: SessionQuery): Promise<TSessionListResponse> {
  const after = q.cursor ? decodeCursor(q.cursor, q.sort) : null;
  const rows = await fetchPage(db, q.filter, q.sort, q.limit + 1, after);
  // Same executor as the page (the replica when the route reads one), so the total and the rows agree.
  const { total, totalCapped } = await countMatching(db, q.filter);
  const page = rows.slice(0, q.limit);
  const more = rows.length > q.limit;
  return {
    sessions: page.map((r) => toSessionView(r, q.filter.nowMs, q.filter.thresholdMs)),
    nextCursor: more ? encodeCursor(cursorAfter(page[page.length - 1], q.sort)) : null,
    limit: q.limit,
    sort: q.sort,
    now: toIsoMs(q.filter.nowMs),
    total,
    totalCapped,
  };
}

export const EXPORT_PAGE_SIZE = 1000;

/** Every session matching the filter (ignores limit; starts at the cursor if any), page by page. */
export async function* iterateSessions(db: Db, q: SessionQuery, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<TSessionView> {
  let after = q.cursor ? decodeCursor(q.cursor, q.sort) : null;
  for (;;) {
    const rows = await fetchPage(db, q.filter, q.sort, pageSize, after);
    for (const r of rows) yield toSessionView(r, q.filter.nowMs, q.filter.thresholdMs);
    if (rows.length < pageSize) return;
    after = cursorAfter(rows[rows.length - 1], q.sort);
  }
}
