import { readyRoute } from '@/lib/contract/api/routes';
import { checkReadiness } from '@/lib/health/check-readiness';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(readyRoute, async () => {
  const ready = await checkReadiness();
  return Response.json(ready, { status: ready.status === 'ready' ? 200 : 503 });
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(readyRoute);
