/**
 * Exponential backoff with "full jitter" (AWS Architecture Blog, 2015):
 * delay = random(0, min(maxBackoffMs, baseBackoffMs * 2^retry)).
 *
 * `retry` is 0 for the first retry. A server-provided Retry-After is a floor.
 */
export function computeBackoffMs(
  retry: number,
  opts: { baseBackoffMs: number; maxBackoffMs: number; retryAfterMs?: number | null; random?: () => number },
): number {
  const random = opts.random ?? Math.random;
  // 2^retry overflows to Infinity around retry=1024; min() keeps it finite.
  const ceiling = Math.min(opts.maxBackoffMs, opts.baseBackoffMs * 2 ** Math.max(0, retry));
  const r = Math.min(Math.max(random(), 0), 1);
  const jittered = Math.floor(r * ceiling);
  const floor = opts.retryAfterMs != null && opts.retryAfterMs > 0 ? opts.retryAfterMs : 0;
  return Math.max(jittered, floor);
}

/**
 * Parses an HTTP `Retry-After` header (RFC 9110 §10.2.3): either a non-negative
 * integer number of seconds or an HTTP-date. Returns milliseconds to wait from
 * `now` (never negative), or null when the header is absent or unparseable.
 */
export function parseRetryAfterMs(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (v === '') return null;
  if (/^\d+$/.test(v)) {
    const seconds = Number(v);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : null;
  }
  // Only accept things that look like a date, not e.g. "-5" or "1.5".
  if (!/[A-Za-z]/.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
