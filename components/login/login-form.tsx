'use client';
import { useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { UiApiError } from '@/lib/ui/fetcher';
import { writes } from '@/lib/ui/writes';
import { safeNext } from '@/lib/http/safe-next';
import { SIGN_IN_ERRORS, isSignInErrorCode, isTokenSignInError } from '@/lib/contract/api/sign-in-errors';
import { loginFormRoute } from '@/lib/contract/api/routes/access';
import { useTypedBeforeHydration } from '@/lib/ui/use-typed-before-hydration';

/**
 * `sso`: the provider's button when single sign-on is configured (lib/auth/oidc-options.ts).
 *
 * The form works before the page's scripts run: it is then posted as HTML to /api/auth/login/form
 * (lib/auth/form-login.ts), the token in the body, never the URL; a refusal comes back as `?error=`.
 * Once hydrated, the script signs in with JSON and shows refusals in place.
 */
export function LoginForm({ sso }: { sso: { providerName: string } | null }) {
  const sp = useSearchParams();
  const next = safeNext(sp.get('next'));
  // A refused sign-in comes back with its code; the message is ours, never the URL's words. Read once:
  // the code then leaves the URL (below), and the message stays until the next attempt.
  const [refused] = useState(() => {
    const code = sp.get('error');
    return isSignInErrorCode(code) ? code : null;
  });
  useEffect(() => {
    // A refusal is news once: a reload, a bookmark or Back to this page must not say it again.
    const url = new URL(window.location.href);
    if (!url.searchParams.has('error')) return;
    url.searchParams.delete('error');
    window.history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
  }, []);
  const ssoError = refused && !isTokenSignInError(refused) ? SIGN_IN_ERRORS[refused] : null;
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(refused && isTokenSignInError(refused) ? SIGN_IN_ERRORS[refused] : null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(inputRef, token, setToken);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!token.trim()) {
      setError(SIGN_IN_ERRORS.token_missing);
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await writes.login({ token: token.trim() });
      window.location.assign(next);
    } catch (err) {
      setBusy(false);
      if (err instanceof UiApiError && (err.status === 401 || err.status === 403)) setError(SIGN_IN_ERRORS.token_refused);
      else if (err instanceof UiApiError && err.status === 429) setError(SIGN_IN_ERRORS.token_throttled);
      else setError(err instanceof Error ? err.message : String(err));
      inputRef.current?.select();
    }
  };

  return (
    <form className="panel login-card" method="post" action={loginFormRoute.path} onSubmit={(e) => void submit(e)} data-testid="login-form">
      <input type="hidden" name="next" value={next} />
      <div className="brand" style={{ fontSize: 16 }}>
        <span className="brand-mark" aria-hidden="true">
          ▮▯
        </span>{' '}
        Doorwatch
      </div>
      <p className="muted small" style={{ margin: 0 }} data-testid="login-intro">
        The SSE → WebSocket upgrade boundary of your MCP fleet.{' '}
        {sso
          ? `Sign in with ${sso.providerName}. Operator tokens are for machines, and the way in when ${sso.providerName} is down.`
          : 'Sign in with an operator token.'}
      </p>
      {ssoError ? (
        <div className="form-error" role="alert" data-testid="login-sso-error" data-code={refused}>
          {ssoError}
        </div>
      ) : null}
      {sso ? (
        <>
          <a className="btn btn-primary" href={`/api/auth/oidc/start?next=${encodeURIComponent(next)}`} data-testid="login-sso">
            Sign in with {sso.providerName}
          </a>
          <div className="muted small">or with an operator token:</div>
        </>
      ) : null}
      <label htmlFor="token">Operator token</label>
      <input
        ref={inputRef}
        id="token"
        name="token"
        type="password"
        className="input"
        autoComplete="current-password"
        autoFocus={!sso}
        value={token}
        onChange={(e) => setToken(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'login-error' : 'login-hint'}
        data-testid="login-token"
      />
      {error ? (
        <div id="login-error" className="form-error" role="alert">
          {error}
        </div>
      ) : (
        <div id="login-hint" className="hint">
          The first admin token is <code>DOORWATCH_ADMIN_TOKEN</code> (or the one printed at first start); admins create more in Settings.
          With <code>npm run demo</code>, it is <code>adminToken</code> in <code>data/demo-credentials.json</code>.
        </div>
      )}
      <button type="submit" className={sso ? 'btn' : 'btn btn-primary'} disabled={busy} data-testid="login-submit">
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
