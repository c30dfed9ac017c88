// Throttles credential guessing (failed logins and failed bearer tokens), in memory per
// instance. A token bucket per key: each failure takes one token; the bucket refills steadily,
// so a blocked key is free again within `refillMs` per failure and nobody is locked out for
// good. Keys are the client address (lib/http/forwarded.ts) and the presented token's prefix.
// A success never takes a token, and an address's failures never block another address unless
// their tokens share the prefix (an attacker who already knows that much of the token).
import { processSingleton } from '@/lib/config/process-state';
import { ApiError } from '@/lib/http/api-error';

export interface ThrottleOptions {
  /** Failures a key may make in a burst before it is blocked. */
  burst: number;
  /** Milliseconds to earn back one failure. */
  refillMs: number;
  /** Keys remembered at most (memory bound); full buckets are forgotten first. */
  maxKeys: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { burst: 10, refillMs: 6_000, maxKeys: 10_000 };

/** Characters of a presented token that name its bucket: `dw_` + 9 random ones for generated tokens. */
export const TOKEN_PREFIX_CHARS = 12;

interface Bucket {
  tokens: number;
  at: number;
}

export class FailureThrottle {
  private readonly buckets = new Map<string, Bucket>();
  constructor(readonly options: ThrottleOptions = DEFAULT_THROTTLE) {}

  private level(key: string, now: number): Bucket | undefined {
    const b = this.buckets.get(key);
    if (!b) return undefined;
    b.tokens = Math.min(this.options.burst, b.tokens + (now - b.at) / this.options.refillMs);
    b.at = now;
    return b;
  }

  /** Seconds until the first of `keys` that is blocked may try again; 0 when none is blocked. */
  retryAfterSeconds(keys: readonly string[], now = Date.now()): number {
    let wait = 0;
    for (const key of keys) {
      const b = this.level(key, now);
      if (b && b.tokens < 1) wait = Math.max(wait, Math.ceil(((1 - b.tokens) * this.options.refillMs) / 1000));
    }
    return wait;
  }

  /** Counts one failure against each key. */
  fail(keys: readonly string[], now = Date.now()): void {
    for (const key of keys) {
      const b = this.level(key, now) ?? { tokens: this.options.burst, at: now };
      b.tokens = Math.max(0, b.tokens - 1);
      this.buckets.delete(key); // re-insert: Map order is then least recently failed first
      this.buckets.set(key, b);
    }
    this.evict(now);
  }

  get size(): number {
    return this.buckets.size;
  }

  private evict(now: number): void {
    if (this.buckets.size <= this.options.maxKeys) return;
    for (const [key] of this.buckets) {
      if (this.buckets.size <= this.options.maxKeys) return;
      if (this.level(key, now)!.tokens >= this.options.burst) this.buckets.delete(key);
    }
    // Still full of blocked keys: forget the least recently failed ones.
    for (const [key] of this.buckets) {
      if (this.buckets.size <= this.options.maxKeys) return;
      this.buckets.delete(key);
    }
  }
}

/** The throttle keys of one credential attempt. */
export function attemptKeys(address: string, token: string | null): string[] {
  return token === null ? [`addr:${address}`] : [`addr:${address}`, `token:${token.slice(0, TOKEN_PREFIX_CHARS)}`];
}

export function tooManyFailures(retryAfterSeconds: number): ApiError {
  return new ApiError(
    429,
    'too_many_failures',
    `too many failed sign-in attempts from this address or for this token; retry after ${retryAfterSeconds} s`,
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
}

/** The process-wide throttle for logins and bearer tokens. */
export function credentialThrottle(): FailureThrottle {
  return processSingleton('doorwatchLoginThrottle', () => new FailureThrottle());
}

/**
 * Runs a credential check under the throttle: 429 while a key is blocked (before the check, so a
 * blocked guesser learns nothing), and a failed check (401) counts against every key.
 */
export async function throttled<T>(
  address: string,
  token: string | null,
  check: () => Promise<T>,
  throttle = credentialThrottle(),
): Promise<T> {
  const keys = attemptKeys(address, token);
  const wait = throttle.retryAfterSeconds(keys);
  if (wait > 0) throw tooManyFailures(wait);
  try {
    return await check();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) throttle.fail(keys);
    throw err;
  }
}
