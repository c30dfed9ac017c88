import { alertRuleCreateRoute, alertRuleListRoute } from '@/lib/contract/api/routes/alerts';
import { createRule, listRuleViews } from '@/lib/alerts/alert-rule-admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(alertRuleListRoute, ({ db }) => listRuleViews(db, doorwatchNow()));

export const POST = defineRoute(alertRuleCreateRoute, ({ db, body, audit }) => createRule(db, body, Date.now(), audit));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(alertRuleListRoute, alertRuleCreateRoute);
