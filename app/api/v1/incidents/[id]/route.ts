import { incidentDetailRoute } from '@/lib/contract/api/routes/incidents';
import { incidentDetail } from '@/lib/incidents/incident-read';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(incidentDetailRoute, ({ db, params, query }) => incidentDetail(db, params.id, query, Date.now()));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(incidentDetailRoute);
