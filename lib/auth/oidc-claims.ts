// From an ID token's (and the userinfo answer's) claims to a Doorwatch operator: a stable id per
// person at the provider, a display name, and the role the configured claim maps to. Pure.
import { createHash } from 'node:crypto';
import type { SsoRole, SsoRoleMapping } from '@/lib/config/oidc-settings';

export type Claims = Record<string, unknown>;

/** Operator ids of people from a provider start so; a token operator's never do (`op_…`). */
export const SSO_OPERATOR_PREFIX = 'oidc_';

/** `sub` is only unique per issuer (OpenID Connect Core 2): the id hashes both. */
export function ssoOperatorId(issuer: string, sub: string): string {
  return SSO_OPERATOR_PREFIX + createHash('sha256').update(`${issuer}\n${sub}`).digest('base64url').slice(0, 22);
}

/**
 * A claim by name; when there is none of that exact name (Auth0 names claims by URL, with dots),
 * a dotted path into nested objects (Keycloak's realm_access.roles).
 */
export function claimAt(claims: Claims, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let at: unknown = claims;
  for (const part of name.split('.')) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, part)) return undefined;
    at = (at as Claims)[part];
  }
  return at;
}

/** The strongest role any of the claim's values maps to (a string or a list of strings), or null. */
export function roleFor(claims: Claims, claimName: string, map: readonly SsoRoleMapping[]): SsoRole | null {
  const raw = claimAt(claims, claimName);
  const values = new Set((Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string'));
  const granted = map.filter((m) => values.has(m.value)).map((m) => m.role);
  if (granted.includes('admin')) return 'admin';
  return granted.includes('viewer') ? 'viewer' : null;
}

/** What the dashboard calls the person: preferred_username, email, name, else the subject. At most 100 characters. */
export function displayName(claims: Claims): string {
  for (const key of ['preferred_username', 'email', 'name', 'sub']) {
    const v = claims[key];
    if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 100);
  }
  return 'unnamed';
}
