// Ingest, and the operations a platform scrapes or probes: health, liveness, readiness, metrics, the OpenAPI document.
import { z } from 'zod';
import { routeContract } from '../route-contract';
import { ZHealthResponse } from '../health';
import { ZLiveResponse, ZReadyResponse } from '../health-probes';
import { ZPrometheusText } from '../metrics';
import { INGEST_HEADERS, ZIngestRequest, ZIngestResponse } from '../ingest';

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

export const healthRoute = routeContract({
  method: 'GET',
  path: '/api/health',
  operationId: 'getHealth',
  tags: ['meta'],
  auth: 'public',
  summary: 'Liveness and database reachability (no auth)',
  responses: {
    200: { description: 'ok', schema: ZHealthResponse },
    503: {
      description: 'degraded: the database is unreachable, or refuses writes (disk full: `writable: false`)',
      schema: ZHealthResponse,
    },
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
