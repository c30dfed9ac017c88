// The per-token cap on open change streams (lib/live/stream-quota.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimStream } from '@/lib/live/stream-quota';
import { ApiError } from '@/lib/http/api-error';

test('a token holds at most the limit; one more is 429 too_many_streams; a release frees one slot once', () => {
  const releases = [claimStream('op-a', 2), claimStream('op-a', 2)];
  assert.throws(
    () => claimStream('op-a', 2),
    (err) => err instanceof ApiError && err.status === 429 && err.code === 'too_many_streams' && err.headers['retry-after'] === '5',
  );
  // Another token is counted on its own.
  const other = claimStream('op-b', 2);
  releases[0]();
  releases[0](); // twice: still one slot
  const again = claimStream('op-a', 2);
  assert.throws(() => claimStream('op-a', 2), ApiError);
  for (const release of [releases[1], again, other]) release();
  for (let i = 0; i < 2; i++) claimStream('op-a', 2);
});
