import { alertRuleCreateRoute, alertRuleListRoute } from '@/lib/contract/api/routes';
import { createRule, listRuleViews } from '@/lib/alerts/alert-views';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(alertRuleListRoute, ({ db }) => listRuleViews(db, Date.now()));

export const POST = defineRoute(alertRuleCreateRoute, ({ db, body }) => createRule(db, body, Date.now()));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(alertRuleListRoute, alertRuleCreateRoute);
