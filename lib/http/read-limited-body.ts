import { ApiError } from '@/lib/http/api-error';

export interface BodyLimit {
  /** Largest body accepted, in bytes. */
  bytes: number;
  /** What the sender should do instead, appended to the 413 message. */
  hint: string;
}

/**
 * The body stopped before its end: the client closed the connection, or the server cut it at its request
 * timeout (a trickled body, scripts/launch/next-server.ts). Node reports that as ECONNRESET, which read as a
 * lost database connection (lib/db/database-errors.ts) made every cut slowloris body a 503
 * `database_unavailable`, two error lines and a false database refusal in the ingest rejection counts. The
 * client is gone, so the answer reaches no one: it is for the log line and the request metrics.
 */
const incomplete = (err: unknown) =>
  new ApiError(
    400,
    'incomplete_body',
    `the connection closed before the request body was complete (${err instanceof Error ? err.message : String(err)})`,
  );

const tooLarge = (limit: BodyLimit) => new ApiError(413, 'payload_too_large', `request body exceeds ${limit.bytes} bytes; ${limit.hint}`);

/** Reads the body as UTF-8 text, refusing (413) as soon as it passes the limit rather than after buffering it all. */
export async function readLimitedBody(request: Request, limit: BodyLimit): Promise<string> {
  return utf8Text(await readLimitedBytes(request, limit));
}

/** Bytes as UTF-8 text, without copying them first. */
export function utf8Text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * The body's bytes (413 as above), in an ArrayBuffer of their own: never a slice of Node's shared
 * Buffer pool, so it can be transferred to another thread (lib/ingest/ingest-threads.ts).
 */
export async function readLimitedBytes(request: Request, limit: BodyLimit): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit.bytes) throw tooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((err: unknown) => {
      throw incomplete(err);
    });
    if (done) break;
    total += value.byteLength;
    if (total > limit.bytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}
