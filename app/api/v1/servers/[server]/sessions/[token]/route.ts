import { sessionDetailRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { deadlockThresholdMs } from '@/lib/config/settings';
import { getSessionDetail } from '@/lib/queries/session-detail';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(sessionDetailRoute, ({ db, params }) =>
  getSessionDetail(db, params.server, params.token, Date.now(), deadlockThresholdMs()),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(sessionDetailRoute);
