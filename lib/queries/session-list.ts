// The session list: one keyset page, or every matching row in pages (for export).
import type { Db } from '@/lib/db/client';
import type { SessionRow } from '@/lib/store/session-row';
import { countSessions, nextClockChange, sessionPage, sortParts } from '@/lib/store/session-pages';
import type { TSessionListResponse, TSessionSort, TSessionView } from '@/lib/contract/api/sessions';
import { toIsoMs } from '@/lib/contract/timestamp';
import { decodeCursor, encodeCursor, type SessionCursor } from './session-cursor';
import type { SessionQuery } from './session-filter';
import { toSessionView } from './session-view';

function cursorAfter(row: SessionRow, sort: TSessionSort): SessionCursor {
  const { column } = sortParts(sort);
  return { sort, key: Number(row[column]), server: row.server, token: row.token };
}

export async function listSessions(db: Db, q: SessionQuery): Promise<TSessionListResponse> {
  const after = q.cursor ? decodeCursor(q.cursor, q.sort) : null;
  const rows = await sessionPage(db.sql, q.filter, q.sort, q.limit + 1, after);
  // Same executor as the page (the replica when the route reads one), and after it: the total counts
  // every row the page shows, plus any committed since (not one snapshot; the incident list is). The
  // clock's next change beside it: on PostgreSQL on another pooled connection, so the answer waits for
  // the slower of the two, not their sum.
  const [{ total, totalCapped }, nextChangeAt] = await Promise.all([countSessions(db.sql, q.filter), nextClockChange(db.sql, q.filter)]);
  const page = rows.slice(0, q.limit);
  const more = rows.length > q.limit;
  return {
    sessions: page.map((r) => toSessionView(r, q.filter.nowMs, q.filter.thresholdMs, q.filter.maxMs)),
    nextCursor: more ? encodeCursor(cursorAfter(page[page.length - 1], q.sort)) : null,
    limit: q.limit,
    sort: q.sort,
    now: toIsoMs(q.filter.nowMs),
    deadlockMaxMs: q.filter.maxMs,
    nextChangeAt: nextChangeAt === null ? null : toIsoMs(nextChangeAt),
    total,
    totalCapped,
  };
}

export const EXPORT_PAGE_SIZE = 1000;

/** Every session matching the filter (ignores limit; starts at the cursor if any), page by page. */
export async function* iterateSessions(db: Db, q: SessionQuery, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<TSessionView> {
  let after = q.cursor ? decodeCursor(q.cursor, q.sort) : null;
  for (;;) {
    const rows = await sessionPage(db.sql, q.filter, q.sort, pageSize, after);
    for (const r of rows) yield toSessionView(r, q.filter.nowMs, q.filter.thresholdMs, q.filter.maxMs);
    if (rows.length < pageSize) return;
    after = cursorAfter(rows[rows.length - 1], q.sort);
  }
}
