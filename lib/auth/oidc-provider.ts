// The OpenID provider, through the maintained `openid-client` (6): discovery (cached per process once
// it succeeded), the authorisation URL with PKCE S256, the code exchange with its state, nonce and
// ID token checks, userinfo, and RP-initiated logout. Failures become SignInRefusal codes.
import * as oidc from 'openid-client';
import type { OidcOptions } from './oidc-options';
import { SignInRefusal } from './sign-in-refusal';
import type { Claims } from './oidc-claims';
import { claimAt } from './oidc-claims';

/** Seconds a request to the provider may take (openid-client's default is 30). */
const PROVIDER_TIMEOUT_S = 10;

let discovered: { key: string; config: Promise<oidc.Configuration> } | null = null;

/** http:// issuers are allowed on loopback only (the settings check it): openid-client must be told. */
const insecure = (o: OidcOptions) => new URL(o.issuer).protocol === 'http:';

/** The provider's configuration; a failure is not cached, so the next sign-in tries again. */
export function providerConfig(o: OidcOptions): Promise<oidc.Configuration> {
  const key = `${o.issuer}\n${o.clientId}\n${o.clientSecret ?? ''}`;
  if (discovered?.key === key) return discovered.config;
  const auth = o.clientSecret === null ? oidc.None() : oidc.ClientSecretBasic(o.clientSecret);
  const config = oidc
    .discovery(new URL(o.issuer), o.clientId, o.clientSecret ?? undefined, auth, {
      execute: insecure(o) ? [oidc.allowInsecureRequests] : [],
      timeout: PROVIDER_TIMEOUT_S,
    })
    .then((c) => {
      c.timeout = PROVIDER_TIMEOUT_S;
      return c;
    });
  discovered = { key, config };
  config.catch(() => {
    if (discovered?.config === config) discovered = null;
  });
  return config.catch((err: unknown) => {
    throw new SignInRefusal('oidc_provider_unavailable', describe(err));
  });
}

function describe(err: unknown): string {
  const e = err as { code?: unknown; error?: unknown; error_description?: unknown; message?: unknown; cause?: { code?: unknown } };
  const parts = [e.error, e.error_description, e.code, e.cause?.code, e.message].filter((p) => typeof p === 'string' && p);
  return [...new Set(parts)].join(': ').slice(0, 300);
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

export async function authorizationRequest(o: OidcOptions, redirectUri: string): Promise<AuthorizationRequest> {
  const config = await providerConfig(o);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: o.scopes,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, state, nonce, verifier };
}

/** A network failure (refused, timed out) says the provider is down; anything else, that it refused us. */
function exchangeRefusal(err: unknown): SignInRefusal {
  const e = err as { name?: string; cause?: unknown };
  const network = e.name === 'TimeoutError' || e.name === 'AbortError' || (err instanceof TypeError && e.cause !== undefined);
  return new SignInRefusal(network ? 'oidc_provider_unavailable' : 'oidc_token_rejected', describe(err));
}

/**
 * The verified claims of the person the provider signed in: the ID token's, completed from the
 * userinfo endpoint when the role claim is not in the ID token (providers put groups in one or the other).
 */
export async function exchangeCode(
  o: OidcOptions,
  callbackUrl: URL,
  checks: { state: string; nonce: string; verifier: string },
): Promise<{ claims: Claims; idToken: string | undefined }> {
  const config = await providerConfig(o);
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    throw exchangeRefusal(err);
  }
  const idClaims = tokens.claims() as Claims | undefined;
  if (!idClaims || typeof idClaims.sub !== 'string') throw new SignInRefusal('oidc_token_rejected', 'no ID token subject');
  if (claimAt(idClaims, o.roleClaim) !== undefined || !config.serverMetadata().userinfo_endpoint) {
    return { claims: idClaims, idToken: tokens.id_token };
  }
  try {
    const userinfo = (await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)) as Claims;
    return { claims: { ...userinfo, ...idClaims }, idToken: tokens.id_token };
  } catch (err) {
    throw exchangeRefusal(err);
  }
}

/** The provider's end-session URL back to `postLogoutRedirect`, or null when it has none or cannot be reached. */
export async function endSessionUrl(o: OidcOptions, postLogoutRedirect: string): Promise<string | null> {
  try {
    const config = await providerConfig(o);
    if (!config.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(config, { client_id: o.clientId, post_logout_redirect_uri: postLogoutRedirect }).href;
  } catch {
    return null;
  }
}
