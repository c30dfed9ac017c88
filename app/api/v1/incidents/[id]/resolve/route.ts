import { incidentResolveRoute } from '@/lib/contract/api/routes/incidents';
import { resolve } from '@/lib/incidents/incident-actions';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(incidentResolveRoute, ({ db, params, body, operator }) =>
  resolve(db, params.id, operator.name, body.note, doorwatchNow()),
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(incidentResolveRoute);
