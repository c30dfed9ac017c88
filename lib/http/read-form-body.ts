// Small HTML form bodies (application/x-www-form-urlencoded), validated with a zod schema like the
// JSON ones (read-json-body.ts): a field given twice counts once, the last one, as a browser never sends it twice.
import type { z } from 'zod';
import { ApiError } from '@/lib/http/api-error';
import { checkedBody } from '@/lib/http/checked-body';
import { readLimitedBody } from '@/lib/http/read-limited-body';

const FORM = 'application/x-www-form-urlencoded';
const SMALL_FORM = { bytes: 16 * 1024, hint: 'this endpoint takes a small HTML form' };

export async function readFormBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const type = request.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
  if (type !== FORM)
    throw new ApiError(415, 'unsupported_media_type', `send ${FORM} (an HTML form post), not ${type ?? 'no content type'}`);
  const fields = Object.fromEntries(new URLSearchParams(await readLimitedBody(request, SMALL_FORM)));
  return checkedBody(schema, fields);
}
