// The HTTP answer of a session export (shared by /sessions?format= and /sessions/export).
import type { Db } from '@/lib/db/client';
import { iterateSessions } from './session-list';
import type { ExportFormat } from '@/lib/contract/api/sessions';
import { exportStream } from './session-export';
import type { SessionQuery } from './session-filter';

export function sessionExportResponse(db: Db, q: SessionQuery, format: ExportFormat): Response {
  const stamp = new Date(q.filter.nowMs).toISOString().replace(/[:.]/g, '-');
  return new Response(exportStream(iterateSessions(db, q), format), {
    headers: {
      'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="doorwatch-sessions-${stamp}.${format}"`,
      'cache-control': 'no-store',
    },
  });
}
