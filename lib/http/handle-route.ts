// Wraps a route handler: ApiErrors become their JSON answer, anything else a logged 500
// with a generic body (internals never leak to callers).
import { ApiError, errorBody, errorResponse } from './api-error';

export function handleRoute<C>(fn: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      return await fn(request, context);
    } catch (err) {
      if (err instanceof ApiError) return errorResponse(err);
      console.error(`[doorwatch] ${request.method} ${new URL(request.url).pathname} failed:`, err);
      return Response.json(errorBody('internal_error', 'Doorwatch failed to handle this request; see the server log.'), {
        status: 500,
        headers: { 'cache-control': 'no-store' },
      });
    }
  };
}
