import { incidentDetailRoute } from '@/lib/contract/api/routes/incidents';
import { incidentDetail } from '@/lib/incidents/incident-read';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(incidentDetailRoute, ({ db, params, query }) => incidentDetail(db, params.id, query, doorwatchNow()));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(incidentDetailRoute);
