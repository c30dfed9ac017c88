import { sessionListRoute } from '@/lib/contract/api/routes/query';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { deadlockMaxMs, deadlockThresholdMs } from '@/lib/config/settings';
import { sessionExportResponse } from '@/lib/queries/session-export-response';
import { parseSessionQuery } from '@/lib/queries/session-filter';
import { listSessions } from '@/lib/queries/session-list';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(sessionListRoute, ({ db, query }) => {
  const q = parseSessionQuery(query, doorwatchNow(), deadlockThresholdMs(), deadlockMaxMs());
  // format=csv|json: the whole filtered set, streamed (same as /api/v1/sessions/export).
  return query.format ? sessionExportResponse(db, q, query.format) : listSessions(db, q);
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(sessionListRoute);
