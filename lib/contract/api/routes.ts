// Every operation of the HTTP API, declared once. app/api/**/route.ts serves each with defineRoute
// (lib/route/define-route.ts); openapi.ts generates the document from this list; a unit test checks the
// app tree and this list name the same operations.
import { z } from 'zod';
import { routeContract, zText, type RouteContract } from './route-contract';
import { ZStatsQuery, ZStatsResponse } from './stats';
import { ZSessionExportJson, ZSessionExportQuery, ZSessionListQuery, ZSessionListResponse } from './sessions';
import { ZSessionDetailResponse } from './session-detail';
import { ZServerListQuery, ZServerListResponse } from './servers';
import { ZDeadLetterListResponse, ZDeadLetterQuery, ZDeadLetterResponse } from './dead-letters';
import { ZAddServerRequest, ZRegisteredServersResponse, ZRotateSecretRequest, ZServerSecretResponse } from './admin-servers';
import {
  ZAuthSessionResponse,
  ZCreateOperatorRequest,
  ZCreateOperatorResponse,
  ZLoginRequest,
  ZOperatorListResponse,
  ZRevokeOperatorResponse,
} from './operators';
import { ZHealthResponse } from './health';
import { ZLiveResponse, ZReadyResponse } from './health-probes';
import { ZPrometheusText } from './metrics';
import { INGEST_HEADERS, ZIngestRequest, ZIngestResponse } from './ingest';
import { ZProbeHistoryQuery, ZProbeHistoryResponse, ZProbeRunView, ZProbeTargetRequest, ZProbeTargetView } from './probes';
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
} from './alerts';

const ZServerParam = z.object({ server: zText(128).min(1) });
const ZIdParam = z.object({ id: zText(128).min(1) });

export const statsRoute = routeContract({
  method: 'GET',
  path: '/api/v1/stats',
  operationId: 'getStats',
  tags: ['query'],
  auth: 'viewer',
  reads: 'replica',
  summary: 'Totals, exact latency percentiles and a time series over a range',
  query: ZStatsQuery,
  responses: { 200: { description: 'stats', schema: ZStatsResponse } },
});

export const sessionListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/sessions',
  operationId: 'listSessions',
  tags: ['query'],
  auth: 'viewer',
  reads: 'replica',
  summary: 'Session summaries, newest activity first, keyset-paginated; format=csv|json exports the whole set',
  query: ZSessionListQuery,
  responses: {
    200: {
      description: 'one page (or, with format=, the whole filtered set)',
      content: { 'application/json': z.union([ZSessionListResponse, ZSessionExportJson]), 'text/csv': z.string() },
    },
  },
});

export const sessionExportRoute = routeContract({
  method: 'GET',
  path: '/api/v1/sessions/export',
  operationId: 'exportSessions',
  tags: ['query'],
  auth: 'viewer',
  reads: 'replica',
  summary: 'Stream every session matching the filters as CSV (default) or a JSON array',
  query: ZSessionExportQuery,
  responses: {
    200: { description: 'the whole filtered set', content: { 'text/csv': z.string(), 'application/json': ZSessionExportJson } },
  },
});

export const sessionDetailRoute = routeContract({
  method: 'GET',
  path: '/api/v1/servers/{server}/sessions/{token}',
  operationId: 'getSession',
  tags: ['query'],
  auth: 'viewer',
  reads: 'replica',
  summary: 'One session with its ordered timeline and renegotiation chain',
  params: ZServerParam.extend({ token: zText(256).min(1) }),
  responses: { 200: { description: 'the session', schema: ZSessionDetailResponse } },
  errors: [404],
});

export const serverListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/servers',
  operationId: 'listServers',
  tags: ['query'],
  auth: 'viewer',
  reads: 'replica',
  summary: 'Servers with last seen, event counts, conformance verdict (refuses | naive | unknown) and refused ingest requests in range',
  query: ZServerListQuery,
  responses: { 200: { description: 'servers', schema: ZServerListResponse } },
});

export const operatorListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/operators',
  operationId: 'listOperators',
  tags: ['operators'],
  auth: 'admin',
  summary: 'List operator tokens (admin)',
  responses: { 200: { description: 'operators', schema: ZOperatorListResponse } },
});

export const operatorCreateRoute = routeContract({
  method: 'POST',
  path: '/api/v1/operators',
  operationId: 'createOperator',
  tags: ['operators'],
  auth: 'admin',
  summary: 'Create an operator token (admin); the token is returned only here',
  body: ZCreateOperatorRequest,
  responses: { 201: { description: 'created', schema: ZCreateOperatorResponse } },
  errors: [413],
});

export const operatorRevokeRoute = routeContract({
  method: 'DELETE',
  path: '/api/v1/operators/{id}',
  operationId: 'revokeOperator',
  tags: ['operators'],
  auth: 'admin',
  summary: 'Revoke an operator token (admin); it and its login sessions stop working at once',
  params: ZIdParam,
  responses: { 200: { description: 'revoked', schema: ZRevokeOperatorResponse } },
  errors: [404],
});

export const deadLetterListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/admin/dead-letters',
  operationId: 'listDeadLetters',
  tags: ['admin'],
  auth: 'viewer',
  summary: 'What senders posted that was refused (bodies that were not a batch, events that failed the contract), newest first',
  query: ZDeadLetterQuery,
  responses: { 200: { description: 'one page, payloads cut to a preview', schema: ZDeadLetterListResponse } },
});

export const deadLetterRoute = routeContract({
  method: 'GET',
  path: '/api/v1/admin/dead-letters/{id}',
  operationId: 'getDeadLetter',
  tags: ['admin'],
  auth: 'viewer',
  summary: 'One dead letter with its whole payload',
  params: ZIdParam,
  responses: { 200: { description: 'the dead letter', schema: ZDeadLetterResponse } },
  errors: [404],
});

export const registeredServerListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/admin/servers',
  operationId: 'listRegisteredServers',
  tags: ['admin'],
  auth: 'admin',
  summary: 'Registered servers and their secrets’ validity (admin; secrets are never listed)',
  responses: { 200: { description: 'servers', schema: ZRegisteredServersResponse } },
});

export const serverAddRoute = routeContract({
  method: 'POST',
  path: '/api/v1/admin/servers',
  operationId: 'addServer',
  tags: ['admin'],
  auth: 'admin',
  summary: 'Register a server (admin); its whsec_ secret is returned only here',
  body: ZAddServerRequest,
  responses: { 201: { description: 'registered', schema: ZServerSecretResponse } },
  errors: [409, 413],
});

export const serverRemoveRoute = routeContract({
  method: 'DELETE',
  path: '/api/v1/admin/servers/{server}',
  operationId: 'removeServer',
  tags: ['admin'],
  auth: 'admin',
  summary: 'Remove a server and its secrets (admin); stored data stays',
  params: ZServerParam,
  responses: { 204: { description: 'removed' } },
  errors: [404],
});

export const secretRotateRoute = routeContract({
  method: 'POST',
  path: '/api/v1/admin/servers/{server}/rotate',
  operationId: 'rotateServerSecret',
  tags: ['admin'],
  auth: 'admin',
  summary: 'Issue a new secret (admin); the previous one stays valid for graceSeconds so senders can roll over',
  params: ZServerParam,
  body: ZRotateSecretRequest,
  responses: { 200: { description: 'the new secret, shown once', schema: ZServerSecretResponse } },
  errors: [404, 413],
});

export const probeTargetSetRoute = routeContract({
  method: 'PUT',
  path: '/api/v1/admin/servers/{server}/probe',
  operationId: 'setProbeTarget',
  tags: ['admin'],
  auth: 'admin',
  summary: 'Set the server’s door-probe target (admin): URL, optional credential header (never returned), interval, enabled',
  params: ZServerParam,
  body: ZProbeTargetRequest,
  responses: { 200: { description: 'the stored target', schema: ZProbeTargetView } },
  errors: [404, 413],
});

export const probeTargetClearRoute = routeContract({
  method: 'DELETE',
  path: '/api/v1/admin/servers/{server}/probe',
  operationId: 'clearProbeTarget',
  tags: ['admin'],
  auth: 'admin',
  summary: 'Remove the server’s door-probe target (admin); its run history stays until retention',
  params: ZServerParam,
  responses: { 204: { description: 'removed' } },
  errors: [404],
});

export const probeRunRoute = routeContract({
  method: 'POST',
  path: '/api/v1/admin/servers/{server}/probe/run',
  operationId: 'runProbe',
  tags: ['admin'],
  auth: 'admin',
  summary: 'Run the server’s door probe now (admin) and answer with the stored result; bounded by the probe’s step deadlines',
  params: ZServerParam,
  responses: { 200: { description: 'the run, classified per step', schema: ZProbeRunView } },
  errors: [404],
});

export const probeHistoryRoute = routeContract({
  method: 'GET',
  path: '/api/v1/servers/{server}/probes',
  operationId: 'listProbeRuns',
  tags: ['query'],
  auth: 'viewer',
  reads: 'replica',
  summary: 'The server’s door-probe target (credential value never shown) and its runs, newest first',
  params: ZServerParam,
  query: ZProbeHistoryQuery,
  responses: { 200: { description: 'target and runs', schema: ZProbeHistoryResponse } },
});

export const ingestRoute = routeContract({
  method: 'POST',
  path: '/api/v1/ingest/{server}',
  operationId: 'ingestEvents',
  tags: ['ingest'],
  auth: 'webhook',
  summary: 'Post a Standard-Webhooks-signed batch of session transitions (1–1,000 events, at most 1 MiB)',
  description:
    'Judged in this order: content type (415), size (413), signature (401), rate (429), envelope (400, kept as a dead letter), ' +
    'events (200, or 207 when some were rejected; each rejected event is kept as a dead letter). 503 when the database is unreachable: retry.',
  // The server name is checked by the signature step (an unknown name is the same 401 as a bad signature).
  params: z.object({ server: z.string().meta({ description: 'the registered server name the secret belongs to' }) }),
  body: ZIngestRequest,
  rawBody: true,
  headers: INGEST_HEADERS,
  responses: {
    200: { description: 'every event stored (or already stored: duplicates by id)', schema: ZIngestResponse },
    207: { description: 'some events were rejected (listed; the rest were stored)', schema: ZIngestResponse },
  },
  errors: [401, 413, 415, 429, 503],
});

export const loginRoute = routeContract({
  method: 'POST',
  path: '/api/auth/login',
  operationId: 'login',
  tags: ['auth'],
  auth: 'public',
  summary: 'Exchange an operator token for an HTTP-only SameSite=Strict session cookie',
  body: ZLoginRequest,
  responses: { 200: { description: 'logged in (Set-Cookie)', schema: ZAuthSessionResponse } },
  errors: [401, 403, 413],
});

export const logoutRoute = routeContract({
  method: 'POST',
  path: '/api/auth/logout',
  operationId: 'logout',
  tags: ['auth'],
  auth: 'public',
  summary: 'Clear the session cookie',
  responses: { 204: { description: 'logged out' } },
  errors: [403],
});

export const meRoute = routeContract({
  method: 'GET',
  path: '/api/auth/me',
  operationId: 'getMe',
  tags: ['auth'],
  auth: 'viewer',
  summary: 'Who the caller is',
  responses: { 200: { description: 'operator', schema: ZAuthSessionResponse } },
});

export const healthRoute = routeContract({
  method: 'GET',
  path: '/api/health',
  operationId: 'getHealth',
  tags: ['meta'],
  auth: 'public',
  summary: 'Liveness and database reachability (no auth)',
  responses: {
    200: { description: 'ok', schema: ZHealthResponse },
    503: { description: 'degraded: the database is unreachable', schema: ZHealthResponse },
  },
});

export const liveRoute = routeContract({
  method: 'GET',
  path: '/api/live',
  operationId: 'getLiveness',
  tags: ['meta'],
  auth: 'public',
  summary: 'Liveness: the process answers (no database round trip; no auth)',
  responses: { 200: { description: 'the process is up', schema: ZLiveResponse } },
});

export const readyRoute = routeContract({
  method: 'GET',
  path: '/api/ready',
  operationId: 'getReadiness',
  tags: ['meta'],
  auth: 'public',
  summary: 'Readiness: the database is reachable and every migration is applied (no auth)',
  responses: {
    200: { description: 'ready to serve', schema: ZReadyResponse },
    503: { description: 'not ready: `reason` says why (database_unreachable, migrations_pending)', schema: ZReadyResponse },
  },
});

export const metricsRoute = routeContract({
  method: 'GET',
  path: '/metrics',
  operationId: 'getMetrics',
  tags: ['meta'],
  auth: 'scrape',
  summary: 'Prometheus metrics (text format); bearer token of role scrape, viewer or admin',
  description:
    'Domain counters and histograms are computed from the database at scrape time (the same on every instance, ' +
    'correct across restarts); request, ingest-batch and query durations are per instance. No login redirect: ' +
    'without a valid bearer token the answer is 401.',
  responses: { 200: { description: 'metrics', content: { 'text/plain; version=0.0.4': ZPrometheusText } } },
});

export const openApiRoute = routeContract({
  method: 'GET',
  path: '/api/v1/openapi.json',
  operationId: 'getOpenApiDocument',
  tags: ['meta'],
  auth: 'public',
  summary: 'This document (OpenAPI 3.1)',
  responses: { 200: { description: 'the OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  cacheControl: 'public, max-age=60',
});

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

export const changesRoute = routeContract({
  method: 'GET',
  path: '/api/v1/changes',
  operationId: 'streamChanges',
  tags: ['query'],
  auth: 'viewer',
  summary: 'Server-Sent Events: which servers and session tokens changed (coalesced), with heartbeats, for live pages',
  responses: {
    200: { description: 'an event stream of ready, change and heartbeat events', content: { 'text/event-stream': z.string() } },
  },
});

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
  ingestRoute,
  loginRoute,
  logoutRoute,
  meRoute,
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
  liveRoute,
  readyRoute,
  metricsRoute,
];
