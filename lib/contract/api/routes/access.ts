// Signing in and out, and the operators whose tokens do it.
import { routeContract } from '../route-contract';
import {
  ZAuthSessionResponse,
  ZCreateOperatorRequest,
  ZCreateOperatorResponse,
  ZLoginForm,
  ZLoginRequest,
  ZOperatorListResponse,
  ZRevokeOperatorResponse,
  ZSignOutResponse,
} from '../operators';
import { ZIdParam } from './params';

export const operatorListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/operators',
  operationId: 'listOperators',
  tags: ['operators'],
  auth: 'admin',
  summary: 'List operator tokens (admin)',
  responses: { 200: { description: 'operators', schema: ZOperatorListResponse } },
});

export const operatorCreateRoute = routeContract({
  method: 'POST',
  path: '/api/v1/operators',
  operationId: 'createOperator',
  tags: ['operators'],
  auth: 'admin',
  summary: 'Create an operator token (admin); the token is returned only here',
  body: ZCreateOperatorRequest,
  responses: { 201: { description: 'created', schema: ZCreateOperatorResponse } },
  errors: [413],
});

export const operatorRevokeRoute = routeContract({
  method: 'DELETE',
  path: '/api/v1/operators/{id}',
  operationId: 'revokeOperator',
  tags: ['operators'],
  auth: 'admin',
  summary: 'Revoke an operator token (admin); it and its login sessions stop working at once',
  params: ZIdParam,
  responses: { 200: { description: 'revoked', schema: ZRevokeOperatorResponse } },
  errors: [404],
});

export const loginRoute = routeContract({
  method: 'POST',
  path: '/api/auth/login',
  operationId: 'login',
  tags: ['auth'],
  auth: 'public',
  summary: 'Exchange an operator token for an HTTP-only SameSite=Strict session cookie',
  body: ZLoginRequest,
  responses: { 200: { description: 'logged in (Set-Cookie)', schema: ZAuthSessionResponse } },
  errors: [401, 403, 413],
});

export const loginFormRoute = routeContract({
  method: 'POST',
  path: '/api/auth/login/form',
  operationId: 'loginWithForm',
  tags: ['auth'],
  auth: 'public',
  summary: 'The login page as a plain HTML form (Enter before its scripts ran): the token in the body, never the URL',
  description:
    'For browsers; an Origin other than this instance is 403 csrf_rejected. Signed in: 303 to `next` with the session cookie. Refused: 303 to ' +
    '/login?error=token_missing|token_refused|token_throttled (and `next`), the code and message also in the JSON body.',
  body: ZLoginForm,
  bodyType: 'application/x-www-form-urlencoded',
  responses: { 303: { description: 'signed in (Set-Cookie, Location: next) or refused (Location: /login?error=…)' } },
  errors: [403, 413, 415],
});

export const logoutRoute = routeContract({
  method: 'POST',
  path: '/api/auth/logout',
  operationId: 'logout',
  tags: ['auth'],
  auth: 'public',
  summary: 'Clear the session cookie (a single sign-on session ends on every browser of that person)',
  responses: {
    204: { description: 'logged out' },
    200: { description: 'logged out of a single sign-on session; the provider offers to sign out too', schema: ZSignOutResponse },
  },
  errors: [403],
});

export const meRoute = routeContract({
  method: 'GET',
  path: '/api/auth/me',
  operationId: 'getMe',
  tags: ['auth'],
  auth: 'viewer',
  summary: 'Who the caller is',
  responses: { 200: { description: 'operator', schema: ZAuthSessionResponse } },
});
