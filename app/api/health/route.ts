import { healthRoute } from '@/lib/contract/api/routes';
import { checkHealth } from '@/lib/health/check-health';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(healthRoute, async () => {
  const health = await checkHealth();
  return Response.json(health, { status: health.status === 'ok' ? 200 : 503 });
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(healthRoute);
