// The login page's form posted as HTML: what a browser sends when Enter comes before the page's scripts
// run (a slow network). Before this existed the form had no method, so that Enter was a GET that put
// the operator token in the URL: the browser's history and every access log on the way. Now the token
// travels in the body, and every answer is a 303 the browser follows: on to `next` signed in, or back to
// the login page with a code it shows. The script path (POST /api/auth/login, JSON) is unchanged.
import type { Db } from '@/lib/db/client';
import type { TLoginForm } from '@/lib/contract/api/operators';
import { ApiError } from '@/lib/http/api-error';
import { safeNext } from '@/lib/http/safe-next';
import { assertSameOrigin } from './csrf';
import { login } from './login';
import { SignInRefusal, refusalAnswer } from './sign-in-refusal';

export async function formLogin(db: Db, request: Request, form: TLoginForm, nowMs = Date.now()): Promise<Response> {
  // Checked before anything else, so a foreign page's post is a 403 whatever it holds. Every current
  // browser sends Origin with a form post; without one, the JSON login's rule applies (login.ts).
  if (request.headers.get('origin') !== null) assertSameOrigin(request);
  const next = safeNext(form.next);
  const token = form.token.trim();
  if (!token) return refusalAnswer(new SignInRefusal('token_missing'), { next });
  try {
    const signedIn = await login(db, request, token, nowMs);
    const headers = new Headers({ location: next, 'cache-control': 'no-store' });
    for (const cookie of signedIn.headers.getSetCookie()) headers.append('set-cookie', cookie);
    return new Response(null, { status: 303, headers });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return refusalAnswer(new SignInRefusal('token_refused'), { next });
    if (err instanceof ApiError && err.status === 429) {
      const retryAfter = Number(err.headers['retry-after']);
      return refusalAnswer(new SignInRefusal('token_throttled', err.message), {
        next,
        retryAfter: Number.isFinite(retryAfter) ? retryAfter : undefined,
      });
    }
    throw err;
  }
}
