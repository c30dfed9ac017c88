// The OpenAPI 3.1 document of the whole HTTP API, GENERATED from the route declarations in
// routes.ts (the same zod schemas the routes validate with and answer with; zod 4's z.toJSONSchema
// emits JSON Schema 2020-12, OpenAPI 3.1's schema dialect). Served at GET /api/v1/openapi.json.
import { z } from 'zod';
import { ZApiError } from './common';
import { API_ROUTES } from './routes';
import { errorStatuses, isRepeatable, type RouteContract } from './route-contract';

type JsonObject = Record<string, unknown>;

function schema(s: z.ZodType, io: 'input' | 'output'): JsonObject {
  const json = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'bad input: the code names the parameter (invalid_limit, invalid_flag, invalid_body …), details list every wrong one',
  401: 'unauthorized (no, unknown or revoked operator token; for ingest: bad signature, unknown server or stale timestamp)',
  403: 'forbidden (role too low) or csrf_rejected (cookie session without a same-origin Origin)',
  404: 'not found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type: send the media type of the request body shown (application/json, or a form)',
  429: 'rate_limited: retry after the Retry-After header',
  503: 'database_unavailable or database_full: retry later',
};

const errorRef = { $ref: '#/components/schemas/ApiError' };

function parameters(c: RouteContract): JsonObject[] {
  const out: JsonObject[] = [];
  for (const [name, field] of Object.entries(c.params?.shape ?? {})) {
    out.push({ name, in: 'path', required: true, schema: schema(field as z.ZodType, 'input') });
  }
  for (const [name, field] of Object.entries(c.query?.shape ?? {})) {
    const s = schema(field as z.ZodType, 'input');
    const { description, ...rest } = s;
    out.push({
      name,
      in: 'query',
      required: false,
      ...(description ? { description } : {}),
      ...(isRepeatable(field as z.ZodType) ? { style: 'form', explode: true } : {}),
      schema: rest,
    });
  }
  for (const h of c.headers ?? [])
    out.push({ name: h.name, in: 'header', required: h.required, description: h.description, schema: { type: 'string' } });
  return out;
}

function responses(c: RouteContract): JsonObject {
  const out: JsonObject = {};
  for (const [status, r] of Object.entries(c.responses)) {
    const content = r.content ?? (r.schema ? { 'application/json': r.schema } : null);
    out[status] = {
      description: r.description,
      ...(content
        ? { content: Object.fromEntries(Object.entries(content).map(([type, s]) => [type, { schema: schema(s, 'output') }])) }
        : {}),
    };
  }
  for (const status of errorStatuses(c)) {
    out[String(status)] = { description: ERROR_DESCRIPTIONS[status] ?? 'error', content: { 'application/json': { schema: errorRef } } };
  }
  return out;
}

const SECURITY: Record<RouteContract['auth'], JsonObject[]> = {
  public: [],
  webhook: [{ webhookSignature: [] }],
  scrape: [{ bearer: [] }],
  viewer: [{ bearer: [] }, { session: [] }],
  admin: [{ bearer: [] }, { session: [] }],
  annotate: [{ bearer: [] }, { session: [] }],
};

function operation(c: RouteContract): JsonObject {
  const params = parameters(c);
  return {
    operationId: c.operationId,
    summary: c.summary,
    ...(c.description ? { description: c.description } : {}),
    tags: [...c.tags],
    security: SECURITY[c.auth],
    ...(params.length ? { parameters: params } : {}),
    ...(c.body
      ? { requestBody: { required: true, content: { [c.bodyType ?? 'application/json']: { schema: schema(c.body, 'input') } } } }
      : {}),
    responses: responses(c),
  };
}

const TAGS = [
  { name: 'query', description: 'Read sessions, stats and server verdicts' },
  { name: 'ingest', description: 'Where MCP servers post their session transitions (Standard Webhooks)' },
  { name: 'admin', description: 'Registered servers, their secrets, and refused payloads' },
  { name: 'annotations', description: 'Deploy notes and other marks on the time charts (admin or the annotate role posts)' },
  { name: 'operators', description: 'Operator tokens' },
  { name: 'alerts', description: 'Alert rules, their history, and where notifications go' },
  { name: 'auth', description: 'Browser login sessions' },
  { name: 'audit', description: 'The audit log: who changed what, before and after, secrets redacted (admin)' },
  { name: 'meta', description: 'Health and this document' },
  { name: 'mcp', description: 'Doorwatch as an MCP server (Streamable HTTP) for assistants: docs/mcp.md' },
];

export function buildOpenApiDocument(routes: readonly RouteContract[] = API_ROUTES): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const c of routes) (paths[c.path] ??= {})[c.method.toLowerCase()] = operation(c);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Doorwatch API',
      version: '1',
      description:
        'Read the state of the SSE-to-WebSocket upgrade boundary across MCP servers, and post session transitions to it. ' +
        'Operators authenticate with `Authorization: Bearer <operator token>` or a browser login session (cookie; changes then ' +
        'need a same-origin Origin header). Servers sign ingest batches with Standard Webhooks (their whsec_ secret).',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the document describes the Doorwatch that serves it.
    servers: [{ url: '/', description: 'this Doorwatch' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'operator token (dw_...)' },
        session: { type: 'apiKey', in: 'cookie', name: 'dw_session', description: 'browser login session (POST /api/auth/login)' },
        webhookSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'webhook-signature',
          description:
            'Standard Webhooks HMAC-SHA256 signature with the server’s whsec_ secret, over webhook-id, webhook-timestamp and the body',
        },
      },
      schemas: { ApiError: schema(ZApiError, 'output') },
    },
    paths,
  };
}
