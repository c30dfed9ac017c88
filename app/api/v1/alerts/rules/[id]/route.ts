import { alertRuleDeleteRoute, alertRuleUpdateRoute } from '@/lib/contract/api/routes';
import { patchRule, removeRule } from '@/lib/alerts/alert-views';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const PATCH = defineRoute(alertRuleUpdateRoute, ({ db, params, body }) => patchRule(db, params.id, body, Date.now()));

export const DELETE = defineRoute(alertRuleDeleteRoute, async ({ db, params }) => {
  await removeRule(db, params.id);
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, POST, PUT } = refuseOtherMethods(alertRuleUpdateRoute, alertRuleDeleteRoute);
