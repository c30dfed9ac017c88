import { silenceExpireRoute } from '@/lib/contract/api/routes/incidents';
import { endSilence } from '@/lib/incidents/silence-admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const DELETE = defineRoute(silenceExpireRoute, ({ db, params, audit }) => endSilence(db, params.id, audit, doorwatchNow()));

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods(silenceExpireRoute);
