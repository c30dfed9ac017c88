import { alertHistoryRoute } from '@/lib/contract/api/routes';
import { alertHistory } from '@/lib/alerts/alert-views';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(alertHistoryRoute, ({ db, query }) => alertHistory(db, query));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(alertHistoryRoute);
