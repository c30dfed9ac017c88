// Administration: dead letters, registered servers and their secrets, door-probe targets and runs.
import { routeContract } from '../route-contract';
import { ZDeadLetterListResponse, ZDeadLetterQuery, ZDeadLetterResponse } from '../dead-letters';
import { ZAddServerRequest, ZRegisteredServersResponse, ZRotateSecretRequest, ZServerSecretResponse } from '../admin-servers';
import { ZProbeRunView, ZProbeTargetRequest, ZProbeTargetView } from '../probes';
import { ZIdParam, ZServerParam } from './params';

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
