import { logout } from '@/lib/auth/login';
import { logoutRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(logoutRoute, ({ request }) => logout(request));

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(logoutRoute);
