import { probeHistoryRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { probeHistory } from '@/lib/queries/probe-history';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(probeHistoryRoute, ({ db, params, query }) => probeHistory(db, params.server, query));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(probeHistoryRoute);
