import { liveRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(liveRoute, () => ({ status: 'live' as const, uptimeSeconds: Math.round(process.uptime()) }));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(liveRoute);
