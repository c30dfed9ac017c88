import { startSignIn } from '@/lib/auth/oidc-sign-in';
import { oidcStartRoute } from '@/lib/contract/api/routes/sso';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(oidcStartRoute, ({ request, query }) => startSignIn(request, query.next));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(oidcStartRoute);
