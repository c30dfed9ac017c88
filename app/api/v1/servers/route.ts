import { serverListRoute } from '@/lib/contract/api/routes/query';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { listServerVerdicts } from '@/lib/queries/server-verdicts';
import { parseTimeRange } from '@/lib/queries/time-range';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(serverListRoute, ({ db, query }) =>
  listServerVerdicts(db, parseTimeRange(query.from, query.to, doorwatchNow())),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(serverListRoute);
