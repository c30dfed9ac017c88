// The audit log's read path (admin): a page of entries, newest first, under the filters, or the
// whole filtered set streamed as CSV or NDJSON. Entries were redacted when written; nothing here
// sees a secret. Keyset cursor (at, id): entries written while paging land before it, never shift it.
import type { Db } from '@/lib/db/client';
import type { TAuditEntry, TAuditFilterQuery, TAuditListQuery, TAuditListResponse } from '@/lib/contract/api/audit';
import { toIsoMs } from '@/lib/contract/timestamp';
import { ApiError } from '@/lib/http/api-error';
import { readAuditPage, type AuditFilter, type AuditRow } from '@/lib/store/audit-log';
import { parseOpenRange } from './query-params';
import { csvCell } from './session-export';

const EXPORT_PAGE = 500;
const CSV_COLUMNS = ['id', 'at', 'actorName', 'actorKind', 'actorId', 'action', 'entityType', 'entityId', 'before', 'after', 'requestId'];

const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function entryView(r: AuditRow): TAuditEntry {
  return {
    id: r.id,
    at: toIsoMs(r.at),
    actor: { name: r.actorName, kind: r.actorKind, id: r.actorId },
    action: r.action,
    entityType: r.entityType,
    entityId: r.entityId,
    before: parseJson(r.before),
    after: parseJson(r.after),
    requestId: r.requestId,
  };
}

function auditFilter(q: TAuditFilterQuery, nowMs: number): AuditFilter {
  const { fromMs, toMs } = parseOpenRange(q, nowMs);
  return { actor: q.actor, entityType: q.entityType, entityId: q.entityId, action: q.action, fromMs, toMs };
}

const encodeCursor = (r: AuditRow) => Buffer.from(JSON.stringify({ v: 1, a: r.at, i: r.id })).toString('base64url');

function decodeCursor(value: string): { at: number; id: string } {
  try {
    if (!/^[A-Za-z0-9_-]{1,2048}$/.test(value)) throw new Error('not base64url');
    const o = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (o.v === 1 && Number.isSafeInteger(o.a) && typeof o.i === 'string' && !o.i.includes('\0')) return { at: o.a as number, id: o.i };
  } catch {
    // falls through to the refusal
  }
  throw new ApiError(400, 'invalid_cursor', 'cursor is not one this API issued; start again without cursor=');
}

export async function auditPage(db: Db, q: TAuditListQuery, nowMs: number): Promise<TAuditListResponse> {
  const filter = auditFilter(q, nowMs);
  const rows = await readAuditPage(db.sql, filter, q.cursor ? decodeCursor(q.cursor) : null, q.limit + 1);
  const page = rows.slice(0, q.limit);
  return { entries: page.map(entryView), nextCursor: rows.length > q.limit ? encodeCursor(page[page.length - 1]) : null, limit: q.limit };
}

async function* allRows(db: Db, filter: AuditFilter): AsyncGenerator<AuditRow> {
  let after: { at: number; id: string } | null = null;
  for (;;) {
    const rows = await readAuditPage(db.sql, filter, after, EXPORT_PAGE);
    yield* rows;
    if (rows.length < EXPORT_PAGE) return;
    const last = rows[rows.length - 1];
    after = { at: last.at, id: last.id };
  }
}

function csvLine(r: AuditRow): string {
  const cells: unknown[] = [
    r.id,
    toIsoMs(r.at),
    r.actorName,
    r.actorKind,
    r.actorId,
    r.action,
    r.entityType,
    r.entityId,
    r.before,
    r.after,
    r.requestId,
  ];
  return cells.map(csvCell).join(',') + '\r\n';
}

/** The whole filtered set as a download; pulls pages only as fast as the client reads. */
export function auditExportResponse(db: Db, q: TAuditFilterQuery, format: 'csv' | 'ndjson', nowMs: number): Response {
  const filter = auditFilter(q, nowMs);
  const rows = allRows(db, filter);
  const encoder = new TextEncoder();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = '';
      if (!started) {
        started = true;
        if (format === 'csv') chunk += CSV_COLUMNS.join(',') + '\r\n';
      }
      for (let i = 0; i < 200; i++) {
        const next = await rows.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += format === 'csv' ? csvLine(next.value) : JSON.stringify(entryView(next.value)) + '\n';
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
  return new Response(body, {
    headers: {
      'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="doorwatch-audit-${stamp}.${format}"`,
      'cache-control': 'no-store',
    },
  });
}
