// The one wrapper every route under app/api uses. A route declares its contract (lib/contract/api/
// routes.ts: auth, zod schemas of params, query and body, responses, operationId) and a handler that
// receives typed, checked input and delegates to lib/. The wrapper does what every route needs:
// authorisation, getDb(), input validation (400 naming the wrong parameter), ApiError → JSON,
// a logged 500 for anything else, and the cache-control header.
import type { z } from 'zod';
import { authorize, type AuthenticatedOperator } from '@/lib/auth/require-operator';
import type { RouteContract } from '@/lib/contract/api/route-contract';
import { getDb, type Db } from '@/lib/db/client';
import { databaseUnavailable, isRetryableDatabaseError } from '@/lib/ingest/database-unavailable';
import { ApiError, errorBody, errorResponse } from './api-error';
import { parseInput, parseQuery } from './parse-input';
import { readJsonBody } from './read-json-body';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<C extends RouteContract> {
  request: Request;
  db: Db;
  params: Parsed<C['params']>;
  query: Parsed<C['query']>;
  /** Undefined when the contract has `rawBody` (the handler reads `request` itself). */
  body: C['rawBody'] extends true ? undefined : Parsed<C['body']>;
  /** The caller, for viewer/admin routes; null for public and webhook routes. */
  operator: C['auth'] extends 'viewer' | 'admin' ? AuthenticatedOperator : null;
}

/** A plain value is answered as JSON with the contract's first success status; a Response is passed through. */
export type RouteHandler<C extends RouteContract> = (input: RouteInput<C>) => Promise<unknown> | unknown;

type NextContext = { params: Promise<Record<string, string | string[]>> };

/** The Next.js handler, carrying its contract so tests can check the app tree against the document. */
export type DefinedRoute<C extends RouteContract> = ((request: Request, context: NextContext) => Promise<Response>) & { contract: C };

const successStatus = (c: RouteContract) => Number(Object.keys(c.responses)[0]);

export function defineRoute<const C extends RouteContract>(contract: C, handler: RouteHandler<C>): DefinedRoute<C> {
  const cacheControl = contract.cacheControl ?? 'no-store';
  const run = async (request: Request, context: NextContext): Promise<Response> => {
    try {
      const operator = contract.auth === 'viewer' || contract.auth === 'admin' ? await authorize(request, contract.auth, getDb()) : null;
      const params = contract.params ? parseInput('params', contract.params, await context.params) : undefined;
      const query = contract.query ? parseQuery(contract.query, new URL(request.url).searchParams) : undefined;
      const body = contract.body && !contract.rawBody ? await readJsonBody(request, contract.body) : undefined;
      // db is opened on first use: openapi.json is rendered at build time, where there is no database.
      const input = { request, get db() { return getDb(); }, params, query, body, operator } as RouteInput<C>;
      const result = await handler(input);
      const response = result instanceof Response ? result : Response.json(result, { status: successStatus(contract) });
      if (!response.headers.has('cache-control')) response.headers.set('cache-control', cacheControl);
      return response;
    } catch (err) {
      if (err instanceof ApiError) return errorResponse(err);
      if (isRetryableDatabaseError(err)) return errorResponse(databaseUnavailable(err));
      console.error(`[doorwatch] ${request.method} ${new URL(request.url).pathname} failed:`, err);
      return Response.json(errorBody('internal_error', 'Doorwatch failed to handle this request; see the server log.'), {
        status: 500,
        headers: { 'cache-control': 'no-store' },
      });
    }
  };
  return Object.assign(run, { contract });
}
