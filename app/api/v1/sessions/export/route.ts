import { sessionExportRoute } from '@/lib/contract/api/routes/query';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { deadlockMaxMs, deadlockThresholdMs } from '@/lib/config/settings';
import { sessionExportResponse } from '@/lib/queries/session-export-response';
import { parseSessionQuery } from '@/lib/queries/session-filter';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(sessionExportRoute, ({ db, query }) =>
  sessionExportResponse(db, parseSessionQuery(query, doorwatchNow(), deadlockThresholdMs(), deadlockMaxMs()), query.format),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(sessionExportRoute);
