// How many change streams one operator token may hold open at once (its login sessions count with
// it: a session is signed in with the token). Without a cap one leaked token, or a page reloading
// in a loop behind a proxy that never closes upstream connections, could hold every socket and
// all the memory the streams need; with it, one more is answered 429 `too_many_streams`.
import { processSingleton } from '@/lib/config/process-state';
import { ApiError } from '@/lib/http/api-error';

const held = () => processSingleton('doorwatchChangeStreamsHeld', () => new Map<string, number>());

/** Claims one stream for `holder` (an operator id), or throws 429; returns the release (idempotent). */
export function claimStream(holder: string, limit: number): () => void {
  const counts = held();
  const now = counts.get(holder) ?? 0;
  if (now >= limit) {
    throw new ApiError(
      429,
      'too_many_streams',
      `this operator token already holds ${now} open change streams (the limit is ${limit}, DOORWATCH_CHANGE_STREAMS_PER_TOKEN); close one first`,
      { 'retry-after': '5' },
      { limit },
    );
  }
  counts.set(holder, now + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (counts.get(holder) ?? 1) - 1;
    if (left > 0) counts.set(holder, left);
    else counts.delete(holder);
  };
}
