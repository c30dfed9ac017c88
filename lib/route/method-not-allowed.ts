// A route's answer to the methods it does not serve: 405 in the API's error envelope, with `Allow`,
// instead of Next's empty 405, so a script that sends DELETE to a GET-only path gets a code it can
// switch on and the methods that work; logged and counted like every answer (route.ts observed), so
// a sender that calls ingest with the wrong method is visible. Each route file exports these beside
// its defineRoute handlers (tests/unit/openapi-coverage.test.ts checks that every route answers every method).
import type { RouteContract } from '@/lib/contract/api/route-contract';
import { ApiError, errorResponse } from '@/lib/http/api-error';
import { observed } from './define-route';

/** The methods a route file answers: Next answers OPTIONS itself, and HEAD for a route with GET. */
export const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];

export type RefusedMethod = ((request: Request) => Promise<Response>) & { refuses: string };

/** What `Allow` lists for a path served by these contracts. */
function allowedMethods(contracts: readonly RouteContract[]): string[] {
  const served = new Set<string>(contracts.map((c) => c.method));
  if (served.has('GET')) served.add('HEAD');
  served.add('OPTIONS');
  return [...served].sort();
}

/**
 * 405 handlers for every method the contracts (one path's operations) do not declare. HEAD is
 * refused only where there is no GET (Next derives HEAD from GET).
 */
export function refuseOtherMethods<const C extends readonly RouteContract[]>(
  ...contracts: C
): Record<Exclude<RouteMethod, C[number]['method'] | ('GET' extends C[number]['method'] ? 'HEAD' : never)>, RefusedMethod> {
  const path = contracts[0].path;
  if (contracts.some((c) => c.path !== path)) throw new Error('refuseOtherMethods: the contracts of one path');
  const allow = allowedMethods(contracts);
  const out: Partial<Record<RouteMethod, RefusedMethod>> = {};
  for (const method of ROUTE_METHODS) {
    if (allow.includes(method)) continue;
    out[method] = Object.assign(
      (request: Request) =>
        observed(path, request, async (annotate) => {
          annotate({ code: 'method_not_allowed' });
          return errorResponse(
            new ApiError(
              405,
              'method_not_allowed',
              `${new URL(request.url).pathname} does not answer ${request.method}; it answers ${allow.join(', ')}`,
              { allow: allow.join(', ') },
            ),
          );
        }),
      { refuses: path },
    );
  }
  return out as never;
}
