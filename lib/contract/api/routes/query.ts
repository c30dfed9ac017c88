// The read operations of the dashboard and its API clients: stats, sessions, servers, probe history, live changes.
import { z } from 'zod';
import { routeContract, zText } from '../route-contract';
import { ZStatsQuery, ZStatsResponse } from '../stats';
import { ZSessionExportJson, ZSessionExportQuery, ZSessionListQuery, ZSessionListResponse } from '../sessions';
import { ZSessionDetailResponse } from '../session-detail';
import { ZServerListQuery, ZServerListResponse } from '../servers';
import { ZProbeHistoryQuery, ZProbeHistoryResponse } from '../probes';
import { ZServerParam } from './params';

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

export const changesRoute = routeContract({
  method: 'GET',
  path: '/api/v1/changes',
  operationId: 'streamChanges',
  tags: ['query'],
  auth: 'viewer',
  summary:
    'Server-Sent Events: which servers and session tokens changed (coalesced), with heartbeats, for live pages. ' +
    'At most DOORWATCH_CHANGE_STREAMS_PER_TOKEN open per operator token (429 too_many_streams); a client that stops reading is dropped',
  responses: {
    200: { description: 'an event stream of ready, change and heartbeat events', content: { 'text/event-stream': z.string() } },
  },
  errors: [429],
});
