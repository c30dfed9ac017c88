// The throttle on credential guessing (failed logins and failed bearer tokens), in memory per
// instance, keyed twice: by the presented credential (a keyed hash of it, never the token
// itself) and by the client address (lib/http/forwarded.ts), each with a progressive delay
// (failure-throttle.ts). The address block does not apply to a high-entropy token
// (tokens.ts): guessing one is hopeless at any rate, and refusing it would let anyone who shares
// the address (a NAT, a proxy without DOORWATCH_TRUST_PROXY) lock every operator out. Cookie
// sessions are never throttled. The trade-off is documented in docs/deploy.md "Sign-in throttle".
import { createHmac, randomBytes } from 'node:crypto';
import { processSingleton } from '@/lib/config/process-state';
import { settings } from '@/lib/config/settings';
import { ApiError } from '@/lib/http/api-error';
import { FailureThrottle, type ThrottleOptions } from './failure-throttle';
import { isHighEntropyToken } from './tokens';
import { monotonicMs } from '@/lib/time/steady-clock';

type Limits = Omit<ThrottleOptions, 'maxKeys'>;

/** Per address: 10 failures free, then 1 s doubling to 60 s; one failure forgiven per 6 s. */
export const ADDRESS_LIMITS: Limits = { free: 10, baseDelayMs: 1_000, maxDelayMs: 60_000, decayMs: 6_000 };
/** Per presented credential: 3 failures free, then 1 s doubling to 5 min; one forgiven per minute. */
export const CREDENTIAL_LIMITS: Limits = { free: 3, baseDelayMs: 1_000, maxDelayMs: 300_000, decayMs: 60_000 };

export type ThrottleScope = 'address' | 'credential';

export class CredentialThrottle {
  readonly byAddress: FailureThrottle;
  readonly byCredential: FailureThrottle;
  // Per process and never stored: the keys only have to tell presented tokens apart in memory.
  private readonly hmacKey = randomBytes(32);

  constructor(maxKeys: number, address: Limits = ADDRESS_LIMITS, credential: Limits = CREDENTIAL_LIMITS) {
    // Two tables, so a flood of distinct tokens cannot push a blocked address out of memory.
    this.byAddress = new FailureThrottle({ ...address, maxKeys });
    this.byCredential = new FailureThrottle({ ...credential, maxKeys });
  }

  /** 128 bits of HMAC-SHA-256 of the token: its throttle key. */
  credentialKey(token: string): string {
    return createHmac('sha256', this.hmacKey).update(token, 'utf8').digest('base64url').slice(0, 22);
  }
}

export function tooManyFailures(scope: ThrottleScope, retryAfterMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const message =
    scope === 'credential'
      ? `this token has failed too often; retry after ${seconds} s`
      : `too many failed sign-in attempts from this address; retry after ${seconds} s (a generated operator token is still accepted from here)`;
  return new ApiError(429, 'too_many_failures', message, { 'retry-after': String(seconds) }, { scope, retryAfterSeconds: seconds });
}

/** The process-wide throttle for logins and bearer tokens. */
export function credentialThrottle(): CredentialThrottle {
  return processSingleton('doorwatchCredentialThrottle', () => new CredentialThrottle(settings().DOORWATCH_AUTH_THROTTLE_MAX_KEYS));
}

/**
 * Runs a credential check under the throttle. A blocked credential is 429 before the check; so
 * is any credential from a blocked address unless it is high-entropy, which is checked and, when
 * valid, admitted. A failed check (401) counts against the credential and the address; from a
 * blocked address it is answered 429 too, like the weak tokens refused there unchecked.
 */
export async function throttled<T>(
  address: string,
  token: string,
  check: () => Promise<T>,
  throttle = credentialThrottle(),
  // Monotonic: a step of the host clock neither lifts nor lengthens a block.
  now: () => number = monotonicMs,
): Promise<T> {
  const credential = throttle.credentialKey(token);
  const started = now();
  const credentialWait = throttle.byCredential.retryAfterMs(credential, started);
  if (credentialWait > 0) throw tooManyFailures('credential', credentialWait);
  const addressBlocked = throttle.byAddress.retryAfterMs(address, started) > 0;
  if (addressBlocked && !isHighEntropyToken(token)) throw tooManyFailures('address', throttle.byAddress.retryAfterMs(address, started));
  try {
    return await check();
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) throw err;
    const failed = now();
    throttle.byCredential.fail(credential, failed);
    const addressWait = throttle.byAddress.fail(address, failed);
    if (addressBlocked) throw tooManyFailures('address', addressWait);
    throw err;
  }
}
