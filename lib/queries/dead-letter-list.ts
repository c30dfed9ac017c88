// The dead-letter list: what senders posted that Doorwatch refused, newest first, keyset-paginated
// on (receivedAt, id), with counts per code so an operator sees at once what a sender gets wrong.
// Lists carry a preview of each payload (a refused body can be 1 MiB); the detail has it whole.
import type { SqlExecutor } from '@/lib/db/sql';
import { ApiError } from '@/lib/http/api-error';
import {
  DEAD_LETTER_PREVIEW_CHARS,
  type TDeadLetter,
  type TDeadLetterListResponse,
  type TDeadLetterQuery,
} from '@/lib/contract/api/dead-letters';
import { toIsoMs } from '@/lib/contract/timestamp';
import { countDeadLettersByCode, readDeadLetter, readDeadLetterPage, type StoredDeadLetter } from '@/lib/store/dead-letters';
import { parseOpenRange } from './query-params';

export interface DeadLetterQuery {
  server: string | null;
  codes: string[];
  fromMs: number | null;
  toMs: number | null;
  limit: number;
  cursor: { receivedAt: number; id: string } | null;
}

/** The checked query parameters (ZDeadLetterQuery) → a DeadLetterQuery. */
export function parseDeadLetterQuery(q: TDeadLetterQuery, nowMs: number): DeadLetterQuery {
  const { fromMs, toMs } = parseOpenRange(q, nowMs);
  return {
    server: q.server || null,
    codes: q.code,
    fromMs,
    toMs,
    limit: q.limit,
    cursor: q.cursor ? decodeDeadLetterCursor(q.cursor) : null,
  };
}

export function encodeDeadLetterCursor(c: { receivedAt: number; id: string }): string {
  return Buffer.from(JSON.stringify({ v: 1, r: c.receivedAt, i: c.id })).toString('base64url');
}

function decodeDeadLetterCursor(value: string): { receivedAt: number; id: string } {
  try {
    if (!/^[A-Za-z0-9_-]{1,1024}$/.test(value)) throw new Error('not base64url');
    const o = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    // Safe integers only: 1.5 or 1e300 would reach the database as a key no row has (or a type error).
    if (o?.v === 1 && Number.isSafeInteger(o.r) && typeof o.i === 'string' && !o.i.includes('\0')) return { receivedAt: o.r, id: o.i };
  } catch {
    // fall through to the one answer for any cursor we did not issue
  }
  throw new ApiError(400, 'invalid_cursor', 'cursor is not one this API issued; start again without cursor=');
}

function toView(r: StoredDeadLetter): TDeadLetter {
  return {
    id: r.id,
    server: r.server,
    receivedAt: toIsoMs(r.receivedAt),
    code: r.code,
    message: r.message,
    eventIndex: r.eventIndex,
    eventId: r.eventId,
    payload: r.payload,
    payloadChars: r.payloadChars,
    payloadTruncated: r.payload.length < r.payloadChars,
  };
}

export async function listDeadLetters(sql: SqlExecutor, q: DeadLetterQuery): Promise<TDeadLetterListResponse> {
  // Server and time filters apply to both the page and the per-code counts; codes to the page only.
  const scope = { server: q.server, fromMs: q.fromMs, toMs: q.toMs };
  const rows = await readDeadLetterPage(sql, { ...scope, codes: q.codes, after: q.cursor }, q.limit + 1, DEAD_LETTER_PREVIEW_CHARS);
  const counts = await countDeadLettersByCode(sql, scope);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const byCode = counts.sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  return {
    deadLetters: page.map(toView),
    nextCursor: rows.length > q.limit && last ? encodeDeadLetterCursor({ receivedAt: last.receivedAt, id: last.id }) : null,
    byCode,
    // Exact without another scan: the GROUP BY already counted every code in scope.
    total: byCode.filter((c) => !q.codes.length || q.codes.includes(c.code)).reduce((sum, c) => sum + c.count, 0),
    totalInRange: byCode.reduce((sum, c) => sum + c.count, 0),
  };
}

/** One dead letter with its whole payload; 404 `dead_letter_not_found` if there is none by that id. */
export async function getDeadLetter(sql: SqlExecutor, id: string): Promise<TDeadLetter> {
  const row = id.length <= 64 ? await readDeadLetter(sql, id) : null;
  if (!row)
    throw new ApiError(404, 'dead_letter_not_found', `no dead letter with id ${JSON.stringify(id)} (it may have been pruned by retention)`);
  return toView(row);
}
