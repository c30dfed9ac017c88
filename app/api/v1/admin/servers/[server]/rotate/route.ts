import { secretRotateRoute } from '@/lib/contract/api/routes/admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { rotateSecret } from '@/lib/store/servers/server-registry';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(secretRotateRoute, ({ db, params, body, audit }) =>
  rotateSecret(db, params.server, body.graceSeconds, audit),
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(secretRotateRoute);
