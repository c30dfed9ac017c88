// Incidents (acknowledge, resolve, notes) and notification silences.
import { routeContract } from '../route-contract';
import {
  ZIncidentDetail,
  ZIncidentDetailQuery,
  ZIncidentListQuery,
  ZIncidentListResponse,
  ZIncidentNoteCreate,
  ZIncidentResolve,
  ZIncidentResponse,
  ZSilenceCreate,
  ZSilenceListResponse,
  ZSilenceQuery,
  ZSilenceResponse,
  ZTimelineEntry,
} from '../incidents';
import { ZIdParam } from './params';

export const incidentListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/incidents',
  operationId: 'listIncidents',
  tags: ['incidents'],
  auth: 'viewer',
  summary: 'Incidents, newest last seen first, with totals per status',
  query: ZIncidentListQuery,
  responses: { 200: { description: 'incidents', schema: ZIncidentListResponse } },
});

export const incidentDetailRoute = routeContract({
  method: 'GET',
  path: '/api/v1/incidents/{id}',
  operationId: 'getIncident',
  tags: ['incidents'],
  auth: 'viewer',
  summary: 'One incident: a page of its sessions and its timeline (sessions, alert transitions, probe runs, actions and notes)',
  params: ZIdParam,
  query: ZIncidentDetailQuery,
  responses: { 200: { description: 'the incident', schema: ZIncidentDetail } },
  errors: [404],
});

export const incidentAcknowledgeRoute = routeContract({
  method: 'POST',
  path: '/api/v1/incidents/{id}/acknowledge',
  operationId: 'acknowledgeIncident',
  tags: ['incidents'],
  auth: 'admin',
  summary: 'Acknowledge an open incident (admin): no more notifications for it; 409 when it is not open',
  params: ZIdParam,
  responses: { 200: { description: 'acknowledged', schema: ZIncidentResponse } },
  errors: [404, 409],
});

export const incidentResolveRoute = routeContract({
  method: 'POST',
  path: '/api/v1/incidents/{id}/resolve',
  operationId: 'resolveIncident',
  tags: ['incidents'],
  auth: 'admin',
  summary: 'Resolve an incident by hand (admin), with an optional note; evidence after this reopens it as a regression',
  params: ZIdParam,
  body: ZIncidentResolve,
  responses: { 200: { description: 'resolved', schema: ZIncidentResponse } },
  errors: [404, 409, 413],
});

export const incidentNoteRoute = routeContract({
  method: 'POST',
  path: '/api/v1/incidents/{id}/notes',
  operationId: 'addIncidentNote',
  tags: ['incidents'],
  auth: 'admin',
  summary: 'Add a note to an incident (admin; at most 2000 characters)',
  params: ZIdParam,
  body: ZIncidentNoteCreate,
  responses: { 201: { description: 'the note as a timeline entry', schema: ZTimelineEntry } },
  errors: [404, 413],
});

export const silenceListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/silences',
  operationId: 'listSilences',
  tags: ['incidents'],
  auth: 'viewer',
  summary: 'Notification silences, newest first, with how many notifications each suppressed',
  query: ZSilenceQuery,
  responses: { 200: { description: 'silences', schema: ZSilenceListResponse } },
});

export const silenceCreateRoute = routeContract({
  method: 'POST',
  path: '/api/v1/silences',
  operationId: 'createSilence',
  tags: ['incidents'],
  auth: 'admin',
  summary: 'Silence the notifications of a rule, a server or both for a while (admin); they are stored as suppressed',
  body: ZSilenceCreate,
  responses: { 201: { description: 'created', schema: ZSilenceResponse } },
  errors: [404, 413],
});

export const silenceExpireRoute = routeContract({
  method: 'DELETE',
  path: '/api/v1/silences/{id}',
  operationId: 'expireSilence',
  tags: ['incidents'],
  auth: 'admin',
  summary: 'End a silence now (admin); it stays listed as expired',
  params: ZIdParam,
  responses: { 200: { description: 'expired', schema: ZSilenceResponse } },
  errors: [404, 409],
});
