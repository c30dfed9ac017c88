import { incidentListRoute } from '@/lib/contract/api/routes/incidents';
import { incidentList } from '@/lib/incidents/incident-read';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(incidentListRoute, ({ db, query }) => incidentList(db, query));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(incidentListRoute);
