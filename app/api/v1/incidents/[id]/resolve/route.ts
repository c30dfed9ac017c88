import { incidentResolveRoute } from '@/lib/contract/api/routes/incidents';
import { resolve } from '@/lib/incidents/incident-actions';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(incidentResolveRoute, ({ db, params, body, audit }) =>
  resolve(db, params.id, audit, body.note, doorwatchNow()),
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(incidentResolveRoute);
