// One error type for every API answer: a status, a code a machine can switch on, and a
// message a person can act on. Rendered as {"error": {"code", "message"}}.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function errorBody(code: string, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export function errorResponse(err: ApiError): Response {
  return Response.json(errorBody(err.code, err.message, err.details), {
    status: err.status,
    headers: { 'cache-control': 'no-store', ...err.headers },
  });
}
