// A sign-in in flight: state, nonce, the PKCE verifier and the page to open afterwards, sealed
// (AES-256-GCM, the secret sealing of lib/store/servers/secret-sealing.ts) into a cookie that lives
// ten minutes. Sealed, not only signed: the verifier must not be readable by whoever sees the cookie.
// SameSite=Lax, unlike the session's Strict: the provider's redirect back is a cross-site navigation,
// and only Lax cookies go along with it. Path-limited to the sign-in routes.
import { hkdfSync } from 'node:crypto';
import { settings } from '@/lib/config/settings';
import { isSealed, openSecret, sealSecret } from '@/lib/store/servers/secret-sealing';
import { isHttps } from './session-cookie';
import type { OidcOptions } from './oidc-options';

export const STATE_COOKIE = 'dw_oidc';
export const STATE_TTL_MS = 10 * 60 * 1000;
const COOKIE_PATH = '/api/auth/oidc';

export interface SignInState {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  expiresAt: number;
}

/**
 * The sealing key: from DOORWATCH_SECRET_KEY when set, else from the client secret (the settings
 * insist on one of them), both secrets every instance shares, so a sign-in begun on one instance
 * finishes on another.
 */
function stateKey(o: OidcOptions): Buffer {
  const s = settings();
  const material = s.DOORWATCH_SECRET_KEY ?? Buffer.from(o.clientSecret ?? '', 'utf8');
  return Buffer.from(hkdfSync('sha256', material, s.DOORWATCH_SESSION_SECRET, 'doorwatch/oidc-state/v1', 32));
}

export function sealState(o: OidcOptions, state: SignInState): string {
  return sealSecret(JSON.stringify(state), stateKey(o), 'oidcState');
}

/** The state, or null when it is absent, forged, sealed with another key, malformed or expired. */
export function openState(o: OidcOptions, sealed: string | null, now = Date.now()): SignInState | null {
  // openSecret passes an unsealed value through as it is (clear secrets stored before a key): never here.
  if (sealed === null || !isSealed(sealed)) return null;
  try {
    const s = JSON.parse(openSecret(sealed, stateKey(o), null, 'oidcState')) as Partial<SignInState>;
    const fields = [s.state, s.nonce, s.verifier, s.next];
    if (fields.some((f) => typeof f !== 'string') || typeof s.expiresAt !== 'number' || s.expiresAt <= now) return null;
    return s as SignInState;
  } catch {
    return null;
  }
}

export function stateCookieHeader(request: Request, sealed: string, maxAgeSeconds = STATE_TTL_MS / 1000): string {
  const attrs = [
    `${STATE_COOKIE}=${encodeURIComponent(sealed)}`,
    `Path=${COOKIE_PATH}`,
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (isHttps(request)) attrs.push('Secure');
  return attrs.join('; ');
}

export const clearStateCookieHeader = (request: Request): string => stateCookieHeader(request, '', 0);
