import { silenceCreateRoute, silenceListRoute } from '@/lib/contract/api/routes/incidents';
import { createSilence, silenceList } from '@/lib/incidents/silence-admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(silenceListRoute, ({ db, query }) => silenceList(db, query.state, doorwatchNow()));

export const POST = defineRoute(silenceCreateRoute, ({ db, body, audit }) => createSilence(db, body, audit, doorwatchNow()));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(silenceListRoute, silenceCreateRoute);
