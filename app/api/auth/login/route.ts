import { login } from '@/lib/auth/login';
import { loginRoute } from '@/lib/contract/api/routes/access';
import { defineRoute } from '@/lib/http/route';
import { refuseOtherMethods } from '@/lib/http/method-not-allowed';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(loginRoute, ({ db, request, body }) => login(db, request, body.token));

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(loginRoute);
