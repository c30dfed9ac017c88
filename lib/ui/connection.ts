// Whether what the page shows is still current, as one pure decision: the page is stale when
// Doorwatch does not answer (the live stream broke and a probe of the app failed) or its newest
// refetch failed. A stale page keeps its figures in place, marked, and every clock that ages them
// (the alarm's hold, idle times, an ongoing deadlock) stops at the last moment the data was proven
// current: the browser's clock alone must not turn red into amber with no data behind it.
import type { LiveStatus } from './live-status';
import { UiApiError } from './fetcher';

export interface Staleness {
  stale: boolean;
  /** Why, in words for the notice. */
  reason: 'unreachable' | 'refresh_failed' | null;
  /** Epoch ms of the last proof the data was current (what "as of" shows; null if never proven). */
  asOf: number | null;
}

export function staleness(s: LiveStatus, off: boolean): Staleness {
  // Auto-refresh off: nothing is expected to update, so nothing is "lost" (the indicator says paused).
  if (off) return { stale: false, reason: null, asOf: s.freshAt };
  if (s.unreachableSince !== null) return { stale: true, reason: 'unreachable', asOf: s.freshAt };
  if (s.lastFetchFailed) return { stale: true, reason: 'refresh_failed', asOf: s.freshAt };
  return { stale: false, reason: null, asOf: s.freshAt };
}

/**
 * The clock a figure ages by: the browser's, stopped at `asOf` while the page is stale. At `asOf` itself
 * from the first stale render: the ticking clock's last value is usually before `asOf` (a fetch proved the
 * data current between two ticks), and stopping at the smaller of the two let the next tick move the
 * figure up to `asOf`, a second on a page that already said it was stale (live.test.ts saw it).
 */
export function dataClock(browserNow: number, st: Staleness): number {
  return st.stale && st.asOf !== null ? st.asOf : browserNow;
}

/**
 * What a successful answer proves, given when its request left (`startedAt`) and when it arrived. An
 * answer to a request sent after Doorwatch was found unreachable shows it is back: the page is current
 * as of its arrival. One sent before (slow, in flight while the app stopped) is real data, shown, but
 * proves only that Doorwatch answered somewhere after `startedAt`: the page stays offline (the probe or
 * a newer request says when it is back), with its "as of" moved up to `startedAt` at most.
 */
export function afterAnswer(
  s: Pick<LiveStatus, 'freshAt' | 'unreachableSince'>,
  startedAt: number,
  arrivedAt: number,
): Partial<LiveStatus> {
  if (s.unreachableSince !== null && startedAt < s.unreachableSince) return { freshAt: Math.max(s.freshAt ?? startedAt, startedAt) };
  return { freshAt: Math.max(s.freshAt ?? arrivedAt, arrivedAt), lastFetchFailed: false, lastError: null, unreachableSince: null };
}

/**
 * A failure of Doorwatch rather than of the request: it did not answer, or answered 5xx (its
 * database is down). Such a failure marks the whole page stale; any other (a 4xx: a bad filter, a
 * missing session) is the view's own answer, shown where the view is.
 */
export function isServiceFailure(error: unknown): boolean {
  return isUnreachable(error) || (error instanceof UiApiError && error.status >= 500);
}

/**
 * A failed request that says Doorwatch itself is not answering (the network failed, or a proxy in
 * front answered for it), as opposed to Doorwatch answering with an error.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof UiApiError) return error.status === 502 || error.status === 504;
  return error instanceof TypeError;
}
