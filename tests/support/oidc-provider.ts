// A real OpenID provider (`oidc-provider`, certified) on a loopback port for the single sign-on tests:
// one static confidential client, accounts whose claims the test chooses (groups among them), and
// an interaction that signs in whichever account the test names next (no login form to fill).
// Its port is known before Doorwatch starts (the app needs the issuer URL); the provider itself is
// made once the app's callback URLs are known (the client must list them).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const OIDC_CLIENT_ID = 'doorwatch-test';
export const OIDC_CLIENT_SECRET = 'doorwatch-test-client-secret-0123456789';

export interface TestAccount {
  preferred_username: string;
  email: string;
  groups: string[];
}

export interface TestProvider {
  issuer: string;
  /** Makes the provider for these Doorwatch base URLs (their callbacks and /login after logout). */
  serve(appUrls: readonly string[]): Promise<void>;
  /** The account the next sign-in interaction signs in. */
  signInAs(accountId: string): void;
  /** While down, every connection is cut before an answer: the provider is unreachable. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

export async function startTestProvider(accounts: Record<string, TestAccount>): Promise<TestProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  let down = false;
  let nextAccount: string | null = null;
  const server = createServer((req, res) => {
    if (down || handler === null) {
      req.socket.destroy();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    async serve(appUrls) {
      const { default: Provider } = await import('oidc-provider');
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: OIDC_CLIENT_ID,
            client_secret: OIDC_CLIENT_SECRET,
            redirect_uris: appUrls.map((u) => `${u}/api/auth/oidc/callback`),
            post_logout_redirect_uris: appUrls.map((u) => `${u}/login`),
            response_types: ['code'],
            grant_types: ['authorization_code'],
          },
        ],
        claims: { openid: ['sub'], profile: ['preferred_username'], email: ['email'], groups: ['groups'] },
        scopes: ['openid', 'profile', 'email', 'groups'],
        cookies: { keys: ['doorwatch-test-provider-cookies'] },
        features: { devInteractions: { enabled: false } },
        async findAccount(_ctx: unknown, sub: string) {
          const account = accounts[sub];
          return account ? { accountId: sub, claims: async () => ({ sub, ...account }) } : undefined;
        },
      });
      const callback = provider.callback();
      handler = (req, res) => {
        if (!req.url?.startsWith('/interaction/')) return callback(req, res);
        // Signs in the chosen account and grants what was asked, as a person clicking through would.
        void (async () => {
          const details = await provider.interactionDetails(req, res);
          const accountId = nextAccount ?? 'nobody';
          const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
          grant.addOIDCScope(details.params.scope);
          const grantId = await grant.save();
          await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
        })().catch((err: unknown) => {
          res.statusCode = 500;
          res.end(String(err));
        });
      };
    },
    signInAs(accountId) {
      nextAccount = accountId;
    },
    setDown(value) {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
