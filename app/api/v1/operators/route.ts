import { operatorCreateRoute, operatorListRoute } from '@/lib/contract/api/routes/access';
import { createOperator, listOperators } from '@/lib/auth/operators';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(operatorListRoute, async ({ db }) => ({ operators: await listOperators(db) }));

export const POST = defineRoute(operatorCreateRoute, ({ db, body, audit }) => createOperator(db, body.name, body.role, audit));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(operatorListRoute, operatorCreateRoute);
