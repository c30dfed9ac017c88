import { liveRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(liveRoute, () => ({ status: 'live' as const, uptimeSeconds: Math.round(process.uptime()) }));
