// A request body's fields checked against its contract's zod schema: 400 `invalid_body` naming the
// first wrong field. Shared by the JSON bodies and the HTML form ones.
import type { z } from 'zod';
import { ApiError } from '@/lib/http/api-error';

export function checkedBody<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ApiError(400, 'invalid_body', `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  return result.data;
}
