import { silenceCreateRoute, silenceListRoute } from '@/lib/contract/api/routes/incidents';
import { createSilence, silenceList } from '@/lib/incidents/silence-admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(silenceListRoute, ({ db, query }) => silenceList(db, query.state, Date.now()));

export const POST = defineRoute(silenceCreateRoute, ({ db, body, audit }) => createSilence(db, body, audit, Date.now()));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(silenceListRoute, silenceCreateRoute);
