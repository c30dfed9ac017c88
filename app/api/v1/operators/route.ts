import { createOperator, listOperators } from '@/lib/auth/operator-store';
import { operatorCreateRoute, operatorListRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(operatorListRoute, async ({ db }) => ({ operators: await listOperators(db) }));

export const POST = defineRoute(operatorCreateRoute, ({ db, body }) => createOperator(db, body.name, body.role));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(operatorListRoute, operatorCreateRoute);
