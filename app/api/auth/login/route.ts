import { login } from '@/lib/auth/login';
import { loginRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(loginRoute, ({ db, request, body }) => login(db, request, body.token));

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(loginRoute);
