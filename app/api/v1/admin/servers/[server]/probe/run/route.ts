import { probeRunRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { runProbeNow } from '@/lib/probes/probe-admin';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(probeRunRoute, ({ db, params }) => runProbeNow(db, params.server));

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(probeRunRoute);
