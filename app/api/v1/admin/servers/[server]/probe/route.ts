import { probeTargetClearRoute, probeTargetSetRoute } from '@/lib/contract/api/routes/admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { clearProbeTarget, setProbeTarget } from '@/lib/probes/probe-admin';

export const dynamic = 'force-dynamic';

export const PUT = defineRoute(probeTargetSetRoute, ({ db, params, body, audit }) => setProbeTarget(db, params.server, body, audit));

export const DELETE = defineRoute(probeTargetClearRoute, async ({ db, params, audit }) => {
  await clearProbeTarget(db, params.server, audit);
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, POST, PATCH } = refuseOtherMethods(probeTargetSetRoute, probeTargetClearRoute);
