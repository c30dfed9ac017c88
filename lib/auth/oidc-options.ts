// What single sign-on runs with, from the settings (lib/config/oidc-settings.ts), and the callback URL
// a request's sign-in uses. Null when DOORWATCH_OIDC_ISSUER is unset: token sign-in only.
import { OIDC_CALLBACK_PATH, type SsoRoleMapping } from '@/lib/config/oidc-settings';
import { settings } from '@/lib/config/settings';

export interface OidcOptions {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  scopes: string;
  roleClaim: string;
  roleMap: readonly SsoRoleMapping[];
  sessionMs: number;
  providerName: string;
  redirectUrl: string | null;
}

export function oidcOptions(): OidcOptions | null {
  const s = settings();
  if (s.DOORWATCH_OIDC_ISSUER === null || s.DOORWATCH_OIDC_CLIENT_ID === null) return null;
  return {
    issuer: s.DOORWATCH_OIDC_ISSUER,
    clientId: s.DOORWATCH_OIDC_CLIENT_ID,
    clientSecret: s.DOORWATCH_OIDC_CLIENT_SECRET,
    scopes: s.DOORWATCH_OIDC_SCOPES,
    roleClaim: s.DOORWATCH_OIDC_ROLE_CLAIM,
    roleMap: s.DOORWATCH_OIDC_ROLE_MAP,
    sessionMs: s.DOORWATCH_OIDC_SESSION_MS,
    providerName: s.DOORWATCH_OIDC_PROVIDER_NAME,
    redirectUrl: s.DOORWATCH_OIDC_REDIRECT_URL,
  };
}

/** The sign-in page's button, or null without single sign-on. */
export function singleSignOnButton(): { providerName: string } | null {
  const o = oidcOptions();
  return o === null ? null : { providerName: o.providerName };
}

/**
 * The callback URL: the configured one, else on the first public origin, else on the origin this
 * request came to (Host, or X-Forwarded-Host/-Proto behind a trusted proxy: lib/http/forwarded.ts).
 * A forged Host can only name a callback the provider does not have registered, so it refuses.
 */
export function callbackUrl(o: OidcOptions, request: Request): string {
  if (o.redirectUrl !== null) return o.redirectUrl;
  const publicOrigin = settings().DOORWATCH_PUBLIC_ORIGIN[0];
  if (publicOrigin !== undefined) return publicOrigin + OIDC_CALLBACK_PATH;
  const url = new URL(request.url);
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host') || url.host;
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || url.protocol.replace(':', '');
  return `${proto}://${host}${OIDC_CALLBACK_PATH}`;
}
