import { operatorRevokeRoute } from '@/lib/contract/api/routes/access';
import { revokeOperator } from '@/lib/auth/operators';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

/** Revokes the operator token (it and its login sessions stop working at once). */
export const DELETE = defineRoute(operatorRevokeRoute, async ({ db, params, audit }) => ({
  operator: await revokeOperator(db, params.id, audit),
}));

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods(operatorRevokeRoute);
