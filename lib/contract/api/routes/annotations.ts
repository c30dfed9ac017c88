// Annotations (deploy notes on the time charts) and a server's versions (builds).
import { routeContract } from '../route-contract';
import { ZAnnotationCreate, ZAnnotationListQuery, ZAnnotationListResponse, ZAnnotationView } from '../annotations';
import { ZServerVersionsResponse, ZVersionCompareQuery, ZVersionCompareResponse } from '../versions';
import { ZIdParam, ZServerParam } from './params';

export const annotationListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/annotations',
  operationId: 'listAnnotations',
  tags: ['annotations'],
  auth: 'viewer',
  reads: 'replica',
  summary: 'Annotations overlapping a window (and the versions first reported in it), oldest first',
  query: ZAnnotationListQuery,
  responses: { 200: { description: 'annotations and version markers', schema: ZAnnotationListResponse } },
});

export const annotationCreateRoute = routeContract({
  method: 'POST',
  path: '/api/v1/annotations',
  operationId: 'createAnnotation',
  tags: ['annotations'],
  auth: 'annotate',
  summary: 'Post an annotation, e.g. a deploy from CI/CD (admin or the annotate role)',
  body: ZAnnotationCreate,
  responses: { 201: { description: 'created', schema: ZAnnotationView } },
  errors: [413],
});

export const annotationDeleteRoute = routeContract({
  method: 'DELETE',
  path: '/api/v1/annotations/{id}',
  operationId: 'deleteAnnotation',
  tags: ['annotations'],
  auth: 'admin',
  summary: 'Delete an annotation (admin)',
  params: ZIdParam,
  responses: { 204: { description: 'deleted' } },
  errors: [404],
});

export const serverVersionsRoute = routeContract({
  method: 'GET',
  path: '/api/v1/servers/{server}/versions',
  operationId: 'listServerVersions',
  tags: ['query'],
  auth: 'viewer',
  reads: 'replica',
  summary: 'The versions a server reported: first and last seen, sessions, verdict counts, and when its behaviour changed',
  params: ZServerParam,
  responses: { 200: { description: 'versions, oldest first report first', schema: ZServerVersionsResponse } },
});

export const versionCompareRoute = routeContract({
  method: 'GET',
  path: '/api/v1/servers/{server}/versions/compare',
  operationId: 'compareServerVersions',
  tags: ['query'],
  auth: 'viewer',
  reads: 'replica',
  summary: 'Two versions of a server side by side: boundary outcomes, refusal latency (p50/p95), renegotiation rate',
  params: ZServerParam,
  query: ZVersionCompareQuery,
  responses: { 200: { description: 'the two versions', schema: ZVersionCompareResponse } },
});
