import { revokeOperator } from '@/lib/auth/operator-store';
import { operatorRevokeRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

/** Revokes the operator token (it and its login sessions stop working at once). */
export const DELETE = defineRoute(operatorRevokeRoute, async ({ db, params }) => ({ operator: await revokeOperator(db, params.id) }));

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods(operatorRevokeRoute);
