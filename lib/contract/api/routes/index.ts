// Every operation of the HTTP API, declared once, one file per group of routes beside this one.
// app/api/**/route.ts serves each with defineRoute (lib/route/define-route.ts); openapi.ts generates the
// document from this list (in this order); a unit test checks the app tree and this list name the
// same operations.
import type { RouteContract } from '../route-contract';
import {
  changesRoute,
  probeHistoryRoute,
  serverListRoute,
  sessionDetailRoute,
  sessionExportRoute,
  sessionListRoute,
  statsRoute,
} from './query';
import { loginFormRoute, loginRoute, logoutRoute, meRoute, operatorCreateRoute, operatorListRoute, operatorRevokeRoute } from './access';
import { oidcCallbackRoute, oidcStartRoute } from './sso';
import {
  deadLetterListRoute,
  deadLetterRoute,
  probeRunRoute,
  probeTargetClearRoute,
  probeTargetSetRoute,
  registeredServerListRoute,
  secretRotateRoute,
  serverAddRoute,
  serverRemoveRoute,
} from './admin';
import {
  alertDeliveryListRoute,
  alertHistoryRoute,
  alertRuleCreateRoute,
  alertRuleDeleteRoute,
  alertRuleListRoute,
  alertRuleUpdateRoute,
  contactPointCreateRoute,
  contactPointDeleteRoute,
  contactPointListRoute,
} from './alerts';
import {
  incidentAcknowledgeRoute,
  incidentDetailRoute,
  incidentListRoute,
  incidentNoteRoute,
  incidentResolveRoute,
  silenceCreateRoute,
  silenceExpireRoute,
  silenceListRoute,
} from './incidents';
import { annotationCreateRoute, annotationDeleteRoute, annotationListRoute, serverVersionsRoute, versionCompareRoute } from './annotations';
import { healthRoute, ingestRoute, liveRoute, metricsRoute, openApiRoute, readyRoute } from './meta';
import { mcpDeleteRoute, mcpGetRoute, mcpPostRoute } from './mcp';
import { auditListRoute } from './audit';

export const API_ROUTES: readonly RouteContract[] = [
  statsRoute,
  sessionListRoute,
  sessionExportRoute,
  sessionDetailRoute,
  serverListRoute,
  operatorListRoute,
  operatorCreateRoute,
  operatorRevokeRoute,
  deadLetterListRoute,
  deadLetterRoute,
  registeredServerListRoute,
  serverAddRoute,
  serverRemoveRoute,
  secretRotateRoute,
  probeTargetSetRoute,
  probeTargetClearRoute,
  probeRunRoute,
  probeHistoryRoute,
  serverVersionsRoute,
  versionCompareRoute,
  annotationListRoute,
  annotationCreateRoute,
  annotationDeleteRoute,
  ingestRoute,
  loginRoute,
  loginFormRoute,
  logoutRoute,
  meRoute,
  oidcStartRoute,
  oidcCallbackRoute,
  healthRoute,
  openApiRoute,
  changesRoute,
  alertRuleListRoute,
  alertRuleCreateRoute,
  alertRuleUpdateRoute,
  alertRuleDeleteRoute,
  alertHistoryRoute,
  contactPointListRoute,
  contactPointCreateRoute,
  contactPointDeleteRoute,
  alertDeliveryListRoute,
  incidentListRoute,
  incidentDetailRoute,
  incidentAcknowledgeRoute,
  incidentResolveRoute,
  incidentNoteRoute,
  silenceListRoute,
  silenceCreateRoute,
  silenceExpireRoute,
  auditListRoute,
  liveRoute,
  readyRoute,
  metricsRoute,
  mcpPostRoute,
  mcpGetRoute,
  mcpDeleteRoute,
];
