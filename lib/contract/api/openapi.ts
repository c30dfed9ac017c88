// The OpenAPI 3.1 document of the query, auth and operator API, generated from the same zod
// schemas the routes answer with (zod 4's z.toJSONSchema emits JSON Schema 2020-12, which is
// OpenAPI 3.1's schema dialect). Served at GET /api/v1/openapi.json.
import { z } from 'zod';
import { ZApiError } from './common';
import { ZStatsResponse } from './stats';
import { SESSION_SORTS, ZSessionExportJson, ZSessionListResponse } from './sessions';
import { ZSessionDetailResponse } from './session-detail';
import { ZServerListResponse } from './servers';
import { ZDeadLetterListResponse, ZDeadLetterResponse, DEAD_LETTER_MAX_LIMIT, DEAD_LETTER_DEFAULT_LIMIT } from './dead-letters';
import { ZAddServerRequest, ZRegisteredServersResponse, ZRotateSecretRequest, ZServerSecretResponse } from './admin-servers';
import {
  ZAuthSessionResponse,
  ZCreateOperatorRequest,
  ZCreateOperatorResponse,
  ZLoginRequest,
  ZOperatorListResponse,
  ZRevokeOperatorResponse,
} from './operators';
import { SESSION_FLAGS, SESSION_STATES } from '@/lib/contract/summary';

type JsonObject = Record<string, unknown>;

function schema(s: z.ZodType, io: 'input' | 'output' = 'output'): JsonObject {
  const json = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (name: string) => ({ 'application/json': { schema: ref(name) } });

const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((c) => [
      String(c),
      {
        description: { 400: 'bad input (specific code)', 401: 'unauthorized', 403: 'forbidden or csrf_rejected', 404: 'not found', 409: 'conflict' }[c] ?? 'error',
        content: jsonContent('ApiError'),
      },
    ]),
  );

const q = (name: string, description: string, extra: JsonObject = {}) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', ...extra },
});

const rangeParams = [
  q('from', 'Start (inclusive): RFC 3339, epoch ms, or relative as in Grafana (now-15m, now-7d, units s m h d w M y; rounded in UTC: now/d, now-1d/d). 1970 … 9999. Default now-15m.'),
  q('to', 'End (exclusive), same forms. Default now.'),
];

const sessionFilterParams = [
  q('flag', `Repeatable (AND): ${SESSION_FLAGS.join(', ')}`, { enum: [...SESSION_FLAGS] }),
  q('server', 'Server name (repeatable: any of)'),
  q('state', `Repeatable (any of): ${SESSION_STATES.join(', ')}`, { enum: [...SESSION_STATES] }),
  ...rangeParams.map((p) => ({ ...p, description: `${p.description} Sessions active in the range; no default (all time).` })),
  q('token', 'Whole token or prefix'),
  q('sort', 'Order', { enum: [...SESSION_SORTS], default: '-lastEventAt' }),
];

export function buildOpenApiDocument(): JsonObject {
  const components = {
    ApiError: schema(ZApiError),
    StatsResponse: schema(ZStatsResponse),
    SessionListResponse: schema(ZSessionListResponse),
    SessionExport: schema(ZSessionExportJson),
    SessionDetailResponse: schema(ZSessionDetailResponse),
    ServerListResponse: schema(ZServerListResponse),
    OperatorListResponse: schema(ZOperatorListResponse),
    CreateOperatorRequest: schema(ZCreateOperatorRequest, 'input'),
    CreateOperatorResponse: schema(ZCreateOperatorResponse),
    RevokeOperatorResponse: schema(ZRevokeOperatorResponse),
    LoginRequest: schema(ZLoginRequest, 'input'),
    AuthSessionResponse: schema(ZAuthSessionResponse),
    DeadLetterListResponse: schema(ZDeadLetterListResponse),
    DeadLetterResponse: schema(ZDeadLetterResponse),
    RegisteredServersResponse: schema(ZRegisteredServersResponse),
    AddServerRequest: schema(ZAddServerRequest, 'input'),
    RotateSecretRequest: schema(ZRotateSecretRequest, 'input'),
    ServerSecretResponse: schema(ZServerSecretResponse),
  };
  const serverPath = { name: 'server', in: 'path', required: true, schema: { type: 'string' } };
  const secured = { security: [{ bearer: [] }, { session: [] }] };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Doorwatch query API',
      version: '1',
      description:
        'Read the state of the SSE-to-WebSocket upgrade boundary across MCP servers. Authenticate with ' +
        '`Authorization: Bearer <operator token>` or a browser login session (cookie; changes then need a same-origin Origin header).',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'operator token (dw_...)' },
        session: { type: 'apiKey', in: 'cookie', name: 'dw_session' },
      },
      schemas: components,
    },
    paths: {
      '/api/v1/stats': {
        get: {
          summary: 'Totals, exact latency percentiles and a time series over a range',
          ...secured,
          parameters: [...rangeParams, q('server', 'One server; omit for all'), q('bucket', 'Series bucket: 1m, 5m, 1h, 1d … (default chosen from the range)')],
          responses: { 200: { description: 'stats', content: jsonContent('StatsResponse') }, ...errors(400, 401) },
        },
      },
      '/api/v1/sessions': {
        get: {
          summary: 'Session summaries, newest activity first, keyset-paginated; format=csv|json exports the whole set',
          ...secured,
          parameters: [
            ...sessionFilterParams,
            q('limit', 'Page size 1–500 (default 50)'),
            q('cursor', 'nextCursor of the previous page'),
            q('format', 'csv or json: stream the WHOLE filtered set instead of a page', { enum: ['csv', 'json'] }),
          ],
          responses: { 200: { description: 'one page', content: jsonContent('SessionListResponse') }, ...errors(400, 401) },
        },
      },
      '/api/v1/sessions/export': {
        get: {
          summary: 'Stream every session matching the filters as CSV (default) or a JSON array',
          ...secured,
          parameters: [...sessionFilterParams, q('format', 'csv (default) or json', { enum: ['csv', 'json'] })],
          responses: {
            200: { description: 'the whole filtered set', content: { 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: ref('SessionExport') } } },
            ...errors(400, 401),
          },
        },
      },
      '/api/v1/servers/{server}/sessions/{token}': {
        get: {
          summary: 'One session with its ordered timeline and renegotiation chain',
          ...secured,
          parameters: [
            { name: 'server', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'token', in: 'path', required: true, schema: { type: 'string' } },
          ],
          responses: { 200: { description: 'the session', content: jsonContent('SessionDetailResponse') }, ...errors(401, 404) },
        },
      },
      '/api/v1/servers': {
        get: {
          summary: 'Servers with last seen, event counts and conformance verdict (refuses | naive | unknown)',
          ...secured,
          responses: { 200: { description: 'servers', content: jsonContent('ServerListResponse') }, ...errors(401) },
        },
      },
      '/api/v1/operators': {
        get: { summary: 'List operator tokens (admin)', ...secured, responses: { 200: { description: 'operators', content: jsonContent('OperatorListResponse') }, ...errors(401, 403) } },
        post: {
          summary: 'Create an operator token (admin); the token is returned only here',
          ...secured,
          requestBody: { required: true, content: jsonContent('CreateOperatorRequest') },
          responses: { 201: { description: 'created', content: jsonContent('CreateOperatorResponse') }, ...errors(400, 401, 403) },
        },
      },
      '/api/v1/operators/{id}': {
        delete: {
          summary: 'Revoke an operator token (admin)',
          ...secured,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'revoked', content: jsonContent('RevokeOperatorResponse') }, ...errors(401, 403, 404) },
        },
      },
      '/api/v1/admin/dead-letters': {
        get: {
          summary: 'What senders posted that was refused (bodies that were not a batch, events that failed the contract), newest first',
          ...secured,
          parameters: [
            q('server', 'One server'),
            q('code', 'Repeatable or comma-separated: invalid_type, invalid_field, missing_field, invalid_body'),
            q('from', 'Received at or after: RFC 3339, epoch ms, or relative (now-1h). No default (all kept).'),
            q('to', 'Received before, same forms.'),
            q('limit', `Page size 1–${DEAD_LETTER_MAX_LIMIT} (default ${DEAD_LETTER_DEFAULT_LIMIT})`),
            q('cursor', 'nextCursor of the previous page'),
          ],
          responses: { 200: { description: 'one page, payloads cut to a preview', content: jsonContent('DeadLetterListResponse') }, ...errors(400, 401) },
        },
      },
      '/api/v1/admin/dead-letters/{id}': {
        get: {
          summary: 'One dead letter with its whole payload',
          ...secured,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'the dead letter', content: jsonContent('DeadLetterResponse') }, ...errors(401, 404) },
        },
      },
      '/api/v1/admin/servers': {
        get: { summary: 'Registered servers and their secrets’ validity (admin; secrets are never listed)', ...secured, responses: { 200: { description: 'servers', content: jsonContent('RegisteredServersResponse') }, ...errors(401, 403) } },
        post: {
          summary: 'Register a server (admin); its whsec_ secret is returned only here',
          ...secured,
          requestBody: { required: true, content: jsonContent('AddServerRequest') },
          responses: { 201: { description: 'registered', content: jsonContent('ServerSecretResponse') }, ...errors(400, 401, 403, 409) },
        },
      },
      '/api/v1/admin/servers/{server}': {
        delete: { summary: 'Remove a server and its secrets (admin); stored data stays', ...secured, parameters: [serverPath], responses: { 204: { description: 'removed' }, ...errors(401, 403, 404) } },
      },
      '/api/v1/admin/servers/{server}/rotate': {
        post: {
          summary: 'Issue a new secret (admin); the previous one stays valid for graceSeconds so senders can roll over',
          ...secured,
          parameters: [serverPath],
          requestBody: { required: true, content: jsonContent('RotateSecretRequest') },
          responses: { 200: { description: 'the new secret, shown once', content: jsonContent('ServerSecretResponse') }, ...errors(400, 401, 403, 404) },
        },
      },
      '/api/auth/login': {
        post: {
          summary: 'Exchange an operator token for an HTTP-only SameSite=Strict session cookie',
          requestBody: { required: true, content: jsonContent('LoginRequest') },
          responses: { 200: { description: 'logged in (Set-Cookie)', content: jsonContent('AuthSessionResponse') }, ...errors(400, 401, 403) },
        },
      },
      '/api/auth/logout': { post: { summary: 'Clear the session cookie', responses: { 204: { description: 'logged out' } } } },
      '/api/auth/me': {
        get: { summary: 'Who the caller is', ...secured, responses: { 200: { description: 'operator', content: jsonContent('AuthSessionResponse') }, ...errors(401) } },
      },
      '/api/health': { get: { summary: 'Liveness and database reachability (no auth)', responses: { 200: { description: 'ok' }, 503: { description: 'degraded' } } } },
    },
  };
}
