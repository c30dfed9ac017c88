import { finishSignIn } from '@/lib/auth/oidc-sign-in';
import { oidcCallbackRoute } from '@/lib/contract/api/routes/sso';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(oidcCallbackRoute, ({ db, request }) => finishSignIn(db, request));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(oidcCallbackRoute);
