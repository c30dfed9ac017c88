import { statsRoute } from '@/lib/contract/api/routes/query';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { computeStats } from '@/lib/queries/stats';
import { parseStatsQuery } from '@/lib/queries/stats-query';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(statsRoute, ({ db, query }) => computeStats(db, parseStatsQuery(query, doorwatchNow())));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(statsRoute);
