import { statsRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { computeStats } from '@/lib/queries/stats';
import { parseStatsQuery } from '@/lib/queries/stats-query';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(statsRoute, ({ db, query }) => computeStats(db, parseStatsQuery(query, Date.now())));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(statsRoute);
