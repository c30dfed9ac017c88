// OpenID Connect sign-in settings (docs/deploy.md#single-sign-on-openid-connect), part of the one settings
// schema (settings.ts spreads them in). Unset DOORWATCH_OIDC_ISSUER: sign-in is by operator token only.
import { z } from 'zod';
import { trimmed, wholeNumber } from './setting-fields';

/** The roles a person signing in may get; scrape and annotate stay for machines' tokens. */
export const SSO_ROLES = ['admin', 'viewer'] as const;
export type SsoRole = (typeof SSO_ROLES)[number];
export interface SsoRoleMapping {
  value: string;
  role: SsoRole;
}

export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';
const DEFAULT_SESSION_MS = 8 * 60 * 60 * 1000;

const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

function optionalUrl(check: (u: URL) => string | null, description: string) {
  return z
    .preprocess(trimmed, z.string().optional())
    .transform((raw, ctx) => {
      if (raw === undefined) return null;
      let url: URL | null = null;
      try {
        url = new URL(raw);
      } catch {
        /* reported below */
      }
      const problem = url === null ? 'is not a URL' : check(url);
      if (problem !== null) {
        ctx.issues.push({ code: 'custom', message: problem, input: raw });
        return z.NEVER;
      }
      return raw.replace(/\/+$/, '');
    })
    .describe(description);
}

const optionalText = (description: string) =>
  z
    .preprocess(trimmed, z.string().optional())
    .transform((v) => v ?? null)
    .describe(description);

/** `value=role,value=role`; the last `=` splits, so a value may hold one (an LDAP-style group name). */
function parseRoleMap(raw: string): SsoRoleMapping[] | string {
  const out: SsoRoleMapping[] = [];
  for (const entry of raw.split(',').map((e) => e.trim())) {
    if (!entry) continue;
    const eq = entry.lastIndexOf('=');
    const value = eq > 0 ? entry.slice(0, eq).trim() : '';
    const role = entry.slice(eq + 1).trim();
    if (!value || !(SSO_ROLES as readonly string[]).includes(role)) {
      return `entry "${entry}" must look like claim-value=role, role one of ${SSO_ROLES.join(', ')}`;
    }
    out.push({ value, role: role as SsoRole });
  }
  return out;
}

export const OIDC_SETTINGS = {
  DOORWATCH_OIDC_ISSUER: optionalUrl(
    (u) =>
      u.protocol === 'https:' || (u.protocol === 'http:' && isLoopback(u.hostname))
        ? null
        : 'must be an https:// issuer URL (http:// only on loopback)',
    'OpenID Connect issuer URL (its /.well-known/openid-configuration is read); unset: token sign-in only',
  ),
  DOORWATCH_OIDC_CLIENT_ID: optionalText('client id Doorwatch is registered under at the OpenID provider'),
  DOORWATCH_OIDC_CLIENT_SECRET: optionalText('client secret of a confidential client (unset: a public client, PKCE only)'),
  DOORWATCH_OIDC_REDIRECT_URL: optionalUrl(
    (u) => (u.pathname === OIDC_CALLBACK_PATH ? null : `must end in ${OIDC_CALLBACK_PATH}`),
    `the callback URL registered at the provider (unset: the first DOORWATCH_PUBLIC_ORIGIN, else this request's origin, + ${OIDC_CALLBACK_PATH})`,
  ),
  DOORWATCH_OIDC_SCOPES: z
    .preprocess(trimmed, z.string().default('openid profile email'))
    .transform((raw, ctx) => {
      const scopes = raw.split(/[\s,]+/).filter(Boolean);
      if (!scopes.includes('openid')) {
        ctx.issues.push({ code: 'custom', message: 'must include openid', input: raw });
        return z.NEVER;
      }
      return scopes.join(' ');
    })
    .describe('scopes asked for, space-separated (must include openid; add groups for Dex)'),
  DOORWATCH_OIDC_ROLE_CLAIM: z
    .preprocess(trimmed, z.string().default('groups'))
    .describe('claim the role comes from (a dotted path reaches nested claims: realm_access.roles)'),
  DOORWATCH_OIDC_ROLE_MAP: z
    .preprocess(trimmed, z.string().optional())
    .transform((raw, ctx) => {
      const parsed = parseRoleMap(raw ?? '');
      if (typeof parsed === 'string') {
        ctx.issues.push({ code: 'custom', message: parsed, input: raw });
        return z.NEVER;
      }
      return parsed;
    })
    .describe('claim values to roles, value=admin,other=viewer; a person whose claim maps to no role is refused'),
  DOORWATCH_OIDC_SESSION_MS: wholeNumber({
    default: DEFAULT_SESSION_MS,
    min: 1_000,
    max: 30 * 24 * 60 * 60 * 1000,
    description: 'milliseconds a single sign-on session lasts before signing in again',
  }),
  DOORWATCH_OIDC_PROVIDER_NAME: z
    .preprocess(trimmed, z.string().max(60, { error: 'must be at most 60 characters' }).default('SSO'))
    .describe('the name on the sign-in button, "Sign in with …"'),
};

type OidcSettings = { [K in keyof typeof OIDC_SETTINGS]: z.output<(typeof OIDC_SETTINGS)[K]> };

export const OIDC_SHOWN = {
  DOORWATCH_OIDC_CLIENT_SECRET: (raw: string) => `${raw.length} characters, not shown`,
};

/** Problems between OIDC settings (and DOORWATCH_SECRET_KEY), one line each; none when OIDC is off and unmentioned. */
export function oidcSettingProblems(s: OidcSettings & { DOORWATCH_SECRET_KEY: Buffer | null }): string[] {
  const problems: string[] = [];
  if (s.DOORWATCH_OIDC_ISSUER === null) {
    if (s.DOORWATCH_OIDC_CLIENT_ID !== null) problems.push('DOORWATCH_OIDC_ISSUER: needed with DOORWATCH_OIDC_CLIENT_ID');
    return problems;
  }
  if (s.DOORWATCH_OIDC_CLIENT_ID === null) problems.push('DOORWATCH_OIDC_CLIENT_ID: needed with DOORWATCH_OIDC_ISSUER');
  if (s.DOORWATCH_OIDC_ROLE_MAP.length === 0) {
    problems.push('DOORWATCH_OIDC_ROLE_MAP: needed with DOORWATCH_OIDC_ISSUER (without it nobody could sign in)');
  }
  if (s.DOORWATCH_OIDC_CLIENT_SECRET === null && s.DOORWATCH_SECRET_KEY === null) {
    problems.push(
      'DOORWATCH_OIDC_CLIENT_SECRET: needed with DOORWATCH_OIDC_ISSUER unless DOORWATCH_SECRET_KEY is set (one of them keys the sign-in state cookie)',
    );
  }
  return problems;
}
