// A refused sign-in (single sign-on, or the login page's form posted before its scripts ran): the
// browser goes back to the sign-in page, which shows the fixed message for the code; the same code and
// message are the answer's JSON body, for a script or a test. Never a 5xx.
import { SIGN_IN_ERRORS, type SignInErrorCode } from '@/lib/contract/api/sign-in-errors';
import { errorBody } from '@/lib/http/api-error';

export class SignInRefusal extends Error {
  constructor(
    readonly code: SignInErrorCode,
    /** What went wrong in particular (the provider's error), added to the JSON message and the log. */
    readonly detail: string | null = null,
  ) {
    super(detail === null ? SIGN_IN_ERRORS[code] : `${SIGN_IN_ERRORS[code]} (${detail})`);
    this.name = 'SignInRefusal';
  }
}

export interface RefusalOptions {
  /** Cookies to set with the refusal (the spent single sign-on state, cleared). */
  extraCookies?: readonly string[];
  /** Where the sign-in was going (already checked by safeNext): kept so the next attempt goes there. */
  next?: string;
  /** Seconds, for a throttled attempt. */
  retryAfter?: number;
}

/** 303 to /login?error=<code>[&next=…]. */
export function refusalAnswer(refusal: SignInRefusal, options: RefusalOptions = {}): Response {
  const query = new URLSearchParams({ error: refusal.code });
  if (options.next && options.next !== '/') query.set('next', options.next);
  const headers = new Headers({
    location: `/login?${query}`,
    'cache-control': 'no-store',
    'content-type': 'application/json',
  });
  if (options.retryAfter !== undefined) headers.set('retry-after', String(options.retryAfter));
  for (const c of options.extraCookies ?? []) headers.append('set-cookie', c);
  return new Response(JSON.stringify(errorBody(refusal.code, refusal.message)), { status: 303, headers });
}
