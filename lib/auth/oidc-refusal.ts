// A refused single sign-on: the browser goes back to the sign-in page, which shows the fixed message
// for the code; the same code and message are the answer's JSON body, for a script or a test. Never a 5xx.
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

/** 303 to /login?error=<code>, with `extraCookies` (the spent sign-in state cleared). */
export function refusalAnswer(refusal: SignInRefusal, extraCookies: readonly string[] = []): Response {
  const headers = new Headers({
    location: `/login?error=${refusal.code}`,
    'cache-control': 'no-store',
    'content-type': 'application/json',
  });
  for (const c of extraCookies) headers.append('set-cookie', c);
  return new Response(JSON.stringify(errorBody(refusal.code, refusal.message)), { status: 303, headers });
}
