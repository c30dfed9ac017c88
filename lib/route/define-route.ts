// The one wrapper every route under app/api uses. A route declares its contract (lib/contract/api/
// routes.ts: auth, zod schemas of params, query and body, responses, operationId) and a handler that
// receives typed, checked input and delegates to lib/. The wrapper does what every route needs:
// authorisation, the database handle (the primary, or a read replica for `reads: 'replica'`
// contracts, see read-after-write.ts), input validation (400 naming the wrong parameter), ApiError → JSON,
// a logged 500 for anything else, the cache-control header, and one structured log line and one
// duration observation per request (with a request id, also sent back as x-request-id).
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { logger } from '@/lib/log/logger';
import { appMetrics } from '@/lib/prometheus/registry';
import { authorize, type AuthenticatedOperator } from '@/lib/auth/require-operator';
import { isOperatorAuth, type OperatorAuth, type RouteContract } from '@/lib/contract/api/route-contract';
import { getDb, getReadDb, type Db } from '@/lib/db/client';
import { settings } from '@/lib/config/settings';
import { isRetryableDatabaseError } from '@/lib/db/database-errors';
import { databaseUnavailable } from '@/lib/http/database-unavailable';
import { ApiError, errorBody, errorResponse } from '@/lib/http/api-error';
import { parseInput, parseQuery } from '@/lib/http/parse-input';
import { readDbFor, writtenCookie } from './read-after-write';
import { readJsonBody } from '@/lib/http/read-json-body';
import { readFormBody } from '@/lib/http/read-form-body';
import { storeErrorAnswer } from '@/lib/http/store-error-answer';
import { StoreError } from '@/lib/store/store-error';
import type { AuditContext } from '@/lib/store/audit-log';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
/** Adds fields to a request's log line. */
type Annotate = (fields: Record<string, string | number | boolean | null>) => void;

export interface RouteInput<C extends RouteContract> {
  request: Request;
  db: Db;
  params: Parsed<C['params']>;
  query: Parsed<C['query']>;
  /** Undefined when the contract has `rawBody` (the handler reads `request` itself). */
  body: C['rawBody'] extends true ? undefined : Parsed<C['body']>;
  /** The caller, for viewer/admin routes; null for public and webhook routes. */
  operator: C['auth'] extends OperatorAuth ? AuthenticatedOperator : null;
  /** Adds fields (counts, a reason) to this request's log line; never secrets. */
  annotate: Annotate;
  /** This request's id (its log line's reqId and the x-request-id answer header), for other lines it causes. */
  reqId: string;
  /** Who acts and in which request, for the audit entry of a change (operator routes only). */
  audit: C['auth'] extends OperatorAuth ? AuditContext : null;
}

/** The audit log's actor: a bearer token, or a signed-in browser session (any other way in). */
function auditContextOf(operator: AuthenticatedOperator, reqId: string): AuditContext {
  return { actor: { kind: operator.via === 'bearer' ? 'token' : 'session', name: operator.name, id: operator.id }, requestId: reqId };
}

/** A plain value is answered as JSON with the contract's first success status; a Response is passed through. */
export type RouteHandler<C extends RouteContract> = (input: RouteInput<C>) => Promise<unknown> | unknown;

type NextContext = { params: Promise<Record<string, string | string[]>> };

/** The Next.js handler, carrying its contract so tests can check the app tree against the document. */
export type DefinedRoute<C extends RouteContract> = ((request: Request, context: NextContext) => Promise<Response>) & { contract: C };

const successStatus = (c: RouteContract) => Number(Object.keys(c.responses)[0]);

/** A caller's x-request-id when it looks like one (a load balancer's), else a new UUID. */
function requestId(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

/**
 * Every API answer's envelope: `x-request-id`, one structured log line and the request-duration
 * metric, labelled with the operation's path. defineRoute's handlers and the 405s for methods a
 * path does not serve (method-not-allowed.ts) both answer through it.
 */
export async function observed(
  route: string,
  request: Request,
  answer: (annotate: Annotate, reqId: string) => Promise<Response>,
): Promise<Response> {
  const start = performance.now();
  const id = requestId(request);
  const fields: Record<string, string | number | boolean | null> = {};
  const response = await answer((more) => Object.assign(fields, more), id);
  const seconds = (performance.now() - start) / 1000;
  response.headers.set('x-request-id', id);
  const line = {
    reqId: id,
    method: request.method,
    route,
    status: response.status,
    durationMs: Math.round(seconds * 1e4) / 10,
    ...fields,
  };
  const log = logger();
  if (response.status >= 500) log.error(line, 'request failed');
  else log.info(line, 'request');
  try {
    appMetrics().httpRequestDuration.observe({ route, method: request.method, status: String(response.status) }, seconds);
  } catch (err) {
    // Metrics never break a request.
    log.error({ err: err instanceof Error ? err.message : String(err) }, 'request metric failed');
  }
  return response;
}

export function defineRoute<const C extends RouteContract>(contract: C, handler: RouteHandler<C>): DefinedRoute<C> {
  const cacheControl = contract.cacheControl ?? 'no-store';
  const run = (request: Request, context: NextContext): Promise<Response> =>
    observed(contract.path, request, (annotate, reqId) => handle(request, context, annotate, reqId));
  const handle = async (request: Request, context: NextContext, annotate: Annotate, reqId: string): Promise<Response> => {
    try {
      const operator = isOperatorAuth(contract.auth) ? await authorize(request, contract.auth, getDb()) : null;
      const params = contract.params ? parseInput('params', contract.params, await context.params) : undefined;
      const server = (params as { server?: unknown } | undefined)?.server;
      if (typeof server === 'string') annotate({ server });
      const query = contract.query ? parseQuery(contract.query, new URL(request.url).searchParams) : undefined;
      const readBody = contract.bodyType === 'application/x-www-form-urlencoded' ? readFormBody : readJsonBody;
      const body = contract.body && !contract.rawBody ? await readBody(request, contract.body) : undefined;
      // Only with a replica configured does routing cost anything (a cookie check, at most one
      // replica query): otherwise every route reads and writes the primary, as before.
      const replicated = (contract.reads === 'replica' || request.method !== 'GET') && settings().DATABASE_READ_URL !== null;
      const readDb = contract.reads === 'replica' && replicated ? await readDbFor(request, getDb, getReadDb()) : null;
      // db is opened on first use: openapi.json is rendered at build time, where there is no database.
      const input = {
        request,
        get db() {
          return readDb ?? getDb();
        },
        params,
        query,
        body,
        operator,
        annotate,
        reqId,
        audit: operator ? auditContextOf(operator, reqId) : null,
      } as RouteInput<C>;
      const result = await handler(input);
      const response = result instanceof Response ? result : Response.json(result, { status: successStatus(contract) });
      if (!response.headers.has('cache-control')) response.headers.set('cache-control', cacheControl);
      // A caller's change (not a sender's ingest): its replica-routed reads use the primary until the replica replays it.
      if (replicated && request.method !== 'GET' && contract.auth !== 'webhook' && response.status < 400) {
        const cookie = await writtenCookie(request, getDb()).catch(() => null);
        // The change is committed: never fail it for want of the cookie (the reload may then lag).
        if (cookie) response.headers.append('set-cookie', cookie);
      }
      return response;
    } catch (thrown) {
      const err = thrown instanceof StoreError ? storeErrorAnswer(thrown) : thrown;
      if (err instanceof ApiError) {
        annotate({ code: err.code });
        return errorResponse(err);
      }
      if (isRetryableDatabaseError(err)) {
        const unavailable = databaseUnavailable(err, 'http');
        annotate({ code: unavailable.code });
        return errorResponse(unavailable);
      }
      annotate({ error: err instanceof Error ? err.message.split('\n')[0].slice(0, 300) : String(err) });
      return Response.json(errorBody('internal_error', 'Doorwatch failed to handle this request; see the server log.'), {
        status: 500,
        headers: { 'cache-control': 'no-store' },
      });
    }
  };
  return Object.assign(run, { contract });
}
