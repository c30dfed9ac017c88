import { secretRotateRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { rotateSecret } from '@/lib/store/servers/server-registry';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(secretRotateRoute, ({ db, params, body }) => rotateSecret(db, params.server, body.graceSeconds));

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(secretRotateRoute);
