import { logout } from '@/lib/auth/login';
import { logoutRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(logoutRoute, ({ request }) => logout(request));
