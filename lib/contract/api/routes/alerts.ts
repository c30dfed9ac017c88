// Alert rules, their history, contact points and deliveries.
import { routeContract } from '../route-contract';
import {
  ZAlertHistoryQuery,
  ZAlertHistoryResponse,
  ZAlertRuleCreate,
  ZAlertRuleListResponse,
  ZAlertRulePatch,
  ZAlertRuleResponse,
  ZContactPointCreate,
  ZContactPointCreated,
  ZContactPointListResponse,
  ZDeliveryListResponse,
  ZDeliveryQuery,
} from '../alerts';
import { ZIdParam } from './params';

export const alertRuleListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/alerts/rules',
  operationId: 'listAlertRules',
  tags: ['alerts'],
  auth: 'viewer',
  summary: 'Alert rules with their current state (inactive | pending | firing) and the count of failed notifications',
  responses: { 200: { description: 'rules', schema: ZAlertRuleListResponse } },
});

export const alertRuleCreateRoute = routeContract({
  method: 'POST',
  path: '/api/v1/alerts/rules',
  operationId: 'createAlertRule',
  tags: ['alerts'],
  auth: 'admin',
  summary: 'Create an alert rule (admin)',
  body: ZAlertRuleCreate,
  responses: { 201: { description: 'created', schema: ZAlertRuleResponse } },
  errors: [413],
});

export const alertRuleUpdateRoute = routeContract({
  method: 'PATCH',
  path: '/api/v1/alerts/rules/{id}',
  operationId: 'updateAlertRule',
  tags: ['alerts'],
  auth: 'admin',
  summary: 'Change some fields of an alert rule, e.g. {"enabled": false} (admin)',
  params: ZIdParam,
  body: ZAlertRulePatch,
  responses: { 200: { description: 'the rule as changed', schema: ZAlertRuleResponse } },
  errors: [404, 413],
});

export const alertRuleDeleteRoute = routeContract({
  method: 'DELETE',
  path: '/api/v1/alerts/rules/{id}',
  operationId: 'deleteAlertRule',
  tags: ['alerts'],
  auth: 'admin',
  summary: 'Delete an alert rule (admin); its history stays',
  params: ZIdParam,
  responses: { 204: { description: 'deleted' } },
  errors: [404],
});

export const alertHistoryRoute = routeContract({
  method: 'GET',
  path: '/api/v1/alerts/history',
  operationId: 'listAlertHistory',
  tags: ['alerts'],
  auth: 'viewer',
  summary: 'State changes of alert rules (pending, firing, resolved, cleared), newest first, with their notifications',
  query: ZAlertHistoryQuery,
  responses: { 200: { description: 'transitions', schema: ZAlertHistoryResponse } },
});

export const contactPointListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/alerts/contact-points',
  operationId: 'listContactPoints',
  tags: ['alerts'],
  auth: 'viewer',
  summary: 'Webhook contact points (viewers see each URL’s origin only; secrets are never listed)',
  responses: { 200: { description: 'contact points', schema: ZContactPointListResponse } },
});

export const contactPointCreateRoute = routeContract({
  method: 'POST',
  path: '/api/v1/alerts/contact-points',
  operationId: 'createContactPoint',
  tags: ['alerts'],
  auth: 'admin',
  summary: 'Add a webhook contact point (admin); the whsec_ secret its notifications are signed with is returned only here',
  body: ZContactPointCreate,
  responses: { 201: { description: 'created, with its secret (shown once)', schema: ZContactPointCreated } },
  errors: [413],
});

export const contactPointDeleteRoute = routeContract({
  method: 'DELETE',
  path: '/api/v1/alerts/contact-points/{id}',
  operationId: 'deleteContactPoint',
  tags: ['alerts'],
  auth: 'admin',
  summary: 'Remove a contact point (admin); rules stop notifying it, past deliveries stay',
  params: ZIdParam,
  responses: { 204: { description: 'removed' } },
  errors: [404],
});

export const alertDeliveryListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/alerts/deliveries',
  operationId: 'listAlertDeliveries',
  tags: ['alerts'],
  auth: 'viewer',
  summary: 'Notifications sent, pending a retry, or failed for good, newest first',
  query: ZDeliveryQuery,
  responses: { 200: { description: 'deliveries', schema: ZDeliveryListResponse } },
});
