// The answer for an /api path that no route serves (app/api/[[...missing]]/route.ts).
import { ApiError, errorResponse } from './api-error';

export function unknownApiPath(request: Request): Response {
  const { pathname } = new URL(request.url);
  return errorResponse(
    new ApiError(404, 'not_found', `no API operation at ${request.method} ${pathname}; the operations are listed at /api/v1/openapi.json`),
  );
}
