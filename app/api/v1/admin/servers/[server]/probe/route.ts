import { probeTargetClearRoute, probeTargetSetRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { clearProbeTarget, setProbeTarget } from '@/lib/probes/probe-admin';

export const dynamic = 'force-dynamic';

export const PUT = defineRoute(probeTargetSetRoute, ({ db, params, body }) => setProbeTarget(db, params.server, body));

export const DELETE = defineRoute(probeTargetClearRoute, async ({ db, params }) => {
  await clearProbeTarget(db, params.server);
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, POST, PATCH } = refuseOtherMethods(probeTargetSetRoute, probeTargetClearRoute);
