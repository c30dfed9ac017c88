import { metricsRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { appMetrics } from '@/lib/prometheus/registry';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(metricsRoute, async () => {
  const { registry } = appMetrics();
  return new Response(await registry.metrics(), { status: 200, headers: { 'content-type': registry.contentType } });
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(metricsRoute);
