// Small JSON bodies of the auth and operator routes, validated with a zod schema.
import type { z } from 'zod';
import { ApiError } from '@/lib/http/api-error';
import { checkedBody } from '@/lib/http/checked-body';
import { readLimitedBody } from '@/lib/http/read-limited-body';

const SMALL_BODY = { bytes: 16 * 1024, hint: 'these endpoints take small JSON objects' };

export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const text = await readLimitedBody(request, SMALL_BODY);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'the body must be a JSON object');
  }
  return checkedBody(schema, raw);
}
