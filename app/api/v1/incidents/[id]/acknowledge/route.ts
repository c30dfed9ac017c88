import { incidentAcknowledgeRoute } from '@/lib/contract/api/routes/incidents';
import { acknowledge } from '@/lib/incidents/incident-actions';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(incidentAcknowledgeRoute, ({ db, params, audit }) => acknowledge(db, params.id, audit, doorwatchNow()));

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(incidentAcknowledgeRoute);
