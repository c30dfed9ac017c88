// What one API operation promises: who may call it, the zod schemas of its input and output, and
// how it is named in the OpenAPI document. lib/route/define-route.ts enforces it, openapi.ts describes it,
// lib/ui/queries.ts builds URLs from its query schema, so no parameter exists in one place only.
import { z } from 'zod';

/**
 * public: anyone; webhook: Standard Webhooks signature (checked by lib/ingest); scrape/viewer/admin:
 * operator role (each admits the ones above it); annotate: the annotate role or admin.
 */
export type RouteAuth = 'public' | 'webhook' | OperatorAuth;
/** The auth kinds an operator credential satisfies (lib/auth/require-operator.ts ROLE_ADMITS). */
export type OperatorAuth = 'scrape' | 'viewer' | 'admin' | 'annotate';
export const isOperatorAuth = (auth: RouteAuth): auth is OperatorAuth => auth !== 'public' && auth !== 'webhook';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseSpec {
  description: string;
  /** The application/json body; omit for an empty answer (204). */
  schema?: z.ZodType;
  /** Other or several media types (e.g. text/csv next to application/json). */
  content?: Record<string, z.ZodType>;
}

export interface HeaderSpec {
  name: string;
  description: string;
  required: boolean;
}

export interface RouteContract {
  method: HttpMethod;
  /** OpenAPI form: /api/v1/servers/{server}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  auth: RouteAuth;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body's media type; application/json unless it is an HTML form's (the login page's, posted before its scripts run). */
  bodyType?: 'application/x-www-form-urlencoded';
  /** The handler reads the body itself (ingest must verify a signature over the raw bytes); `body` only documents it. */
  rawBody?: true;
  headers?: readonly HeaderSpec[];
  /** Success answers; the first is what a handler returning a plain value answers with. */
  responses: Record<number, ResponseSpec>;
  /** Error statuses besides those the auth and input imply (401/403/400). */
  errors?: readonly number[];
  /** Default no-store: answers are live data or secrets. */
  cacheControl?: string;
  /**
   * 'replica': a read-only query whose handler may read from DATABASE_READ_URL (a streaming
   * replica) when one is set; everything else uses the primary (docs/deploy.md#read-replica).
   */
  reads?: 'replica';
}

/** Keeps the literal types of a declaration (the handler's input is typed from them). */
export function routeContract<const C extends RouteContract>(c: C): C {
  return c;
}

/** Error statuses an operation can answer with: implied by its auth and input, plus the declared ones. */
export function errorStatuses(c: RouteContract): number[] {
  const s = new Set<number>(c.errors ?? []);
  if (c.params || c.query || c.body) s.add(400);
  if (isOperatorAuth(c.auth)) s.add(401);
  if (c.auth === 'admin' || c.auth === 'viewer' || c.auth === 'annotate') s.add(403);
  return [...s].sort((a, b) => a - b);
}

// ---- query-string fields -------------------------------------------------------------------

const unwrap = (s: z.ZodType): z.ZodType =>
  s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable ? unwrap(s.unwrap() as z.ZodType) : s;

/** A repeatable query parameter (array schema): `?flag=a&flag=b`, also `?flag=a,b`. */
export function isRepeatable(field: z.ZodType): boolean {
  return unwrap(field) instanceof z.ZodArray;
}

/** A repeatable parameter's schema: an array, empty when absent. */
export const zRepeatable = <T extends z.ZodType>(item: T) => z.array(item).default([]);

/** A free-text parameter (trimmed, bounded). NUL is refused for every parameter by the route wrapper. */
export const zText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/**
 * The raw query object a query schema parses: repeatable fields collect every value (comma lists
 * split), single fields take the first; empty values count as absent. Unknown parameters are ignored.
 */
export function queryObject(schema: z.ZodObject, params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    if (isRepeatable(field as z.ZodType)) {
      const values = params
        .getAll(name)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== '');
      if (values.length) out[name] = values;
    } else {
      const value = params.get(name)?.trim();
      if (value) out[name] = value;
    }
  }
  return out;
}

/** The other direction, for clients: a typed query object → `?a=1&flag=x&flag=y` (absent and empty values left out). */
export function queryString<S extends z.ZodObject>(schema: S, query: Partial<Record<keyof z.input<S>, unknown>>): string {
  const params = new URLSearchParams();
  for (const name of Object.keys(schema.shape)) {
    const value = (query as Record<string, unknown>)[name];
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null && v !== '') params.append(name, String(v));
    }
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
