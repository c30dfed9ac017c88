// /api/v1/operators (admin) and /api/auth/* — operator tokens and browser sessions.
import { z } from 'zod';
import { ZIsoMs } from './common';

/**
 * scrape: GET /metrics only (a Prometheus bearer token); viewer: read; admin: everything;
 * annotate: POST /api/v1/annotations only (a CI/CD token that marks deploys).
 */
export const OPERATOR_ROLES = ['viewer', 'admin', 'scrape', 'annotate'] as const;
export type TOperatorRole = (typeof OPERATOR_ROLES)[number];

export const ZOperatorView = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(OPERATOR_ROLES),
  createdAt: ZIsoMs,
  revokedAt: ZIsoMs.nullable(),
  lastUsedAt: ZIsoMs.nullable(),
  /** The token from DOORWATCH_ADMIN_TOKEN (or generated at first start). */
  bootstrap: z.boolean(),
});
export type TOperatorView = z.infer<typeof ZOperatorView>;

export const ZOperatorListResponse = z.object({ operators: z.array(ZOperatorView) });

/** POST /api/v1/operators body. */
export const ZCreateOperatorRequest = z.object({
  name: z.string().trim().min(1).max(100),
  role: z.enum(OPERATOR_ROLES),
});

/** POST /api/v1/operators answer (201): the token is shown only here, once. */
export const ZCreateOperatorResponse = z.object({
  operator: ZOperatorView,
  token: z.string(),
});

/** DELETE /api/v1/operators/{id} answer. */
export const ZRevokeOperatorResponse = z.object({ operator: ZOperatorView });

/** POST /api/auth/login body. */
export const ZLoginRequest = z.object({ token: z.string().min(1).max(512) });

/**
 * POST /api/auth/login/form body: the login page's own form, posted as HTML when Enter comes before
 * its scripts run. An empty token is not a 400: the browser is sent back to say what is missing.
 */
export const ZLoginForm = z.object({
  token: z.string().max(512).default('').meta({ description: 'the operator token' }),
  next: z
    .string()
    .max(2048)
    .optional()
    .meta({ description: 'the page to open once signed in (a path on this site; anything else opens /)' }),
});
export type TLoginForm = z.output<typeof ZLoginForm>;

/** POST /api/auth/login and GET /api/auth/me answer. */
export const ZAuthSessionResponse = z.object({
  operator: z.object({ id: z.string(), name: z.string(), role: z.enum(OPERATOR_ROLES) }),
  /** Set for cookie sessions. */
  expiresAt: ZIsoMs.nullable(),
});
export type TAuthSessionResponse = z.infer<typeof ZAuthSessionResponse>;

/** POST /api/auth/logout answer for a single sign-on session whose provider can sign out too. */
export const ZSignOutResponse = z.object({
  endSessionUrl: z.string().meta({ description: 'the provider’s end-session URL: open it to sign out there as well' }),
});
