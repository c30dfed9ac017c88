import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLimitedBody } from '@/lib/http/read-limited-body';
import { ApiError } from '@/lib/http/api-error';

const LIMIT = { bytes: 1024, hint: 'send less' };

/** A body of `chunks` chunks of `size` bytes that records how far it was read and whether it was cancelled. */
function countingBody(chunks: number, size: number) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled === chunks) return controller.close();
        seen.pulled++;
        controller.enqueue(new Uint8Array(size));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://x/', { method: 'POST', body, duplex: 'half' } as RequestInit);
  return { request, seen };
}

test('a body within the limit is read whole', async () => {
  const { request } = countingBody(4, 256);
  assert.equal((await readLimitedBody(request, LIMIT)).length, 1024);
});

test('a declared length past the limit is refused before reading', async () => {
  const request = new Request('http://x/', { method: 'POST', body: 'x'.repeat(2000), headers: { 'content-length': '2000' } });
  await assert.rejects(
    readLimitedBody(request, LIMIT),
    (err: ApiError) => err.status === 413 && err.code === 'payload_too_large' && err.message.includes('send less'),
  );
});

test('an undeclared body is refused once it passes the limit, not read to its end', async () => {
  const { request, seen } = countingBody(1000, 256);
  await assert.rejects(readLimitedBody(request, LIMIT), (err: ApiError) => err.status === 413 && err.code === 'payload_too_large');
  assert.ok(seen.pulled <= 12, `refused early (read ${seen.pulled} of 1000 chunks)`);
  assert.equal(seen.cancelled, true, 'the rest of the body is released, not buffered');
});

test('a body cut before its end (client gone, request timeout) is an incomplete body, not a lost database', async () => {
  // What Node gives a handler whose client's connection closed mid-body: ECONNRESET, which lib/db/database-errors.ts
  // would otherwise take for a lost database connection (a 503 database_unavailable and a false refusal count).
  const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        return controller.enqueue(new TextEncoder().encode('{"events":['));
      }
      controller.error(aborted);
    },
  });
  const request = new Request('http://x/', { method: 'POST', body, duplex: 'half' } as RequestInit);
  await assert.rejects(
    readLimitedBody(request, LIMIT),
    (err: ApiError) => err instanceof ApiError && err.status === 400 && err.code === 'incomplete_body' && /aborted/.test(err.message),
  );
});
