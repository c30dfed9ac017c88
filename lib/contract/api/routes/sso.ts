// Single sign-on through an OpenID provider (authorisation code with PKCE): the browser navigates
// to start, the provider sends it back to the callback. Both answer by redirecting; a refusal sends
// the browser to /login?error=<code> (lib/contract/api/sign-in-errors.ts) with the JSON error body.
import { z } from 'zod';
import { routeContract } from '../route-contract';
import { ZApiError } from '../common';

const ZRefusal = ZApiError.meta({ description: 'a refusal (empty when sent on)' });

export const oidcStartRoute = routeContract({
  method: 'GET',
  path: '/api/auth/oidc/start',
  operationId: 'startSingleSignOn',
  tags: ['auth'],
  auth: 'public',
  summary: 'Begin single sign-on: a short-lived state cookie, then off to the OpenID provider',
  query: z.object({
    next: z.string().max(2048).optional().meta({ description: 'the page to open after signing in (a path on this site)' }),
  }),
  responses: {
    303: {
      description: 'to the provider’s authorisation endpoint, or to /login?error=oidc_not_configured / oidc_provider_unavailable',
      content: { 'application/json': ZRefusal },
    },
  },
});

const param = (description: string) => z.string().max(4096).optional().meta({ description });

export const oidcCallbackRoute = routeContract({
  method: 'GET',
  path: '/api/auth/oidc/callback',
  operationId: 'finishSingleSignOn',
  tags: ['auth'],
  auth: 'public',
  summary: 'Where the OpenID provider sends the browser back: checks state, PKCE and the ID token, maps the role, signs in',
  query: z.object({
    code: param('the authorisation code'),
    state: param('the state this browser’s sign-in started with'),
    error: param('the provider’s refusal, instead of a code'),
    error_description: param('the provider’s words for it'),
  }),
  responses: {
    200: {
      description:
        'signed in (Set-Cookie: the session): a page that opens the next page from this site, so the SameSite=Strict cookie goes along',
      content: { 'text/html': z.string() },
    },
    303: { description: 'refused: to /login?error=<code>', content: { 'application/json': ZRefusal } },
  },
});
