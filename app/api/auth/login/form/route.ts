import { formLogin } from '@/lib/auth/form-login';
import { loginFormRoute } from '@/lib/contract/api/routes/access';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(loginFormRoute, ({ db, request, body }) => formLogin(db, request, body));

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(loginFormRoute);
