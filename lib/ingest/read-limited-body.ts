import { ApiError } from '@/lib/http/api-error';

export const MAX_INGEST_BODY_BYTES = 1024 * 1024;

const tooLarge = (limit: number) =>
  new ApiError(413, 'payload_too_large', `request body exceeds ${limit} bytes; send at most 1,000 events and 1 MiB per request`);

/** Reads the body as UTF-8 text, refusing (413) as soon as it passes the limit rather than after buffering it all. */
export async function readLimitedBody(request: Request, limit = MAX_INGEST_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    parts.push(value);
  }
  return Buffer.concat(parts, total).toString('utf8');
}
