import { alertRuleDeleteRoute, alertRuleUpdateRoute } from '@/lib/contract/api/routes/alerts';
import { patchRule, removeRule } from '@/lib/alerts/alert-rule-admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const PATCH = defineRoute(alertRuleUpdateRoute, ({ db, params, body, audit }) => patchRule(db, params.id, body, Date.now(), audit));

export const DELETE = defineRoute(alertRuleDeleteRoute, async ({ db, params, audit }) => {
  await removeRule(db, params.id, audit);
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, POST, PUT } = refuseOtherMethods(alertRuleUpdateRoute, alertRuleDeleteRoute);
