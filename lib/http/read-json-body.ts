// Small JSON bodies of the auth and operator routes, validated with a zod schema.
import type { z } from 'zod';
import { ApiError } from '@/lib/http/api-error';

const MAX_BODY_BYTES = 16 * 1024;

export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new ApiError(413, 'body_too_large', `the body must be at most ${MAX_BODY_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'the body must be a JSON object');
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue.path.join('.') || 'body';
    throw new ApiError(400, 'invalid_body', `${path}: ${issue.message}`);
  }
  return result.data;
}
