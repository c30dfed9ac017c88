// Why a sign-in was refused: the code travels in the sign-in page's URL (`/login?error=oidc_no_role`)
// and in the refusal's JSON body; the page shows the fixed message for the code, never text from the
// URL (a crafted link could otherwise put any words on the page). `token_*`: an operator token posted
// by the login form as HTML (before its scripts ran); the form's script path shows the same words.
export const SIGN_IN_ERRORS = {
  token_missing: 'Paste your operator token.',
  token_refused: 'That token was not accepted (unknown or revoked).',
  token_throttled: 'Too many attempts; wait a moment and try again.',
  oidc_not_configured: 'Single sign-on is not configured on this Doorwatch; sign in with an operator token.',
  oidc_provider_unavailable: 'The sign-in provider could not be reached. Try again in a moment, or sign in with an operator token.',
  oidc_provider_error: 'The sign-in provider refused or cancelled the sign-in.',
  oidc_callback_invalid: 'The sign-in provider came back without an authorisation code. Start the sign-in again.',
  oidc_state_missing: 'This sign-in was not started here, or took longer than 10 minutes. Start the sign-in again.',
  oidc_state_mismatch: 'The sign-in answer does not belong to the sign-in this browser started. Start the sign-in again.',
  oidc_token_rejected: 'The sign-in provider’s answer could not be verified (code, token or nonce). Start the sign-in again.',
  oidc_no_role: 'You signed in, but your account is in no group that has a Doorwatch role. Ask an administrator for access.',
} as const;
export type SignInErrorCode = keyof typeof SIGN_IN_ERRORS;

export const isSignInErrorCode = (code: string | null): code is SignInErrorCode => code !== null && Object.hasOwn(SIGN_IN_ERRORS, code);

/** A refusal of the operator token field (shown beside it), not of single sign-on (shown above the form). */
export const isTokenSignInError = (code: SignInErrorCode): boolean => code.startsWith('token_');
