import { sessionDetailRoute } from '@/lib/contract/api/routes/query';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { deadlockMaxMs, deadlockThresholdMs } from '@/lib/config/settings';
import { getSessionDetail } from '@/lib/queries/session-detail';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(sessionDetailRoute, ({ db, params }) =>
  getSessionDetail(db, params.server, params.token, doorwatchNow(), deadlockThresholdMs(), deadlockMaxMs()),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(sessionDetailRoute);
