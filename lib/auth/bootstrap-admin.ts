// The bootstrap admin token. With DOORWATCH_ADMIN_TOKEN set, that token is (re)installed as the
// admin operator `bootstrap-admin` at every start — rotating it means changing the variable.
// Unset, a token is generated at the first start only, stored hashed, and printed once; later
// starts leave the stored one alone (create more admins with `npm run operator -- create`).
import type { Db } from '@/lib/db/client';
import { MIN_ADMIN_TOKEN_LENGTH, settings } from '@/lib/config/settings';
import { findOperatorById, insertOperator, putAdminOperator } from '@/lib/store/operators';
import { BOOTSTRAP_OPERATOR_ID } from './operators';
import { generateOperatorToken, hashToken } from './tokens';

export { MIN_ADMIN_TOKEN_LENGTH };
const BOOTSTRAP_NAME = 'bootstrap admin';

export interface BootstrapResult {
  /** `env`: installed from DOORWATCH_ADMIN_TOKEN; `generated`: new token (returned once); `kept`: existing one left alone. */
  action: 'env' | 'generated' | 'kept';
  token?: string;
}

export async function ensureBootstrapAdmin(db: Db, env: { DOORWATCH_ADMIN_TOKEN?: string } = settings()): Promise<BootstrapResult> {
  const fromEnv = env.DOORWATCH_ADMIN_TOKEN?.trim();
  if (fromEnv) {
    if (fromEnv.length < MIN_ADMIN_TOKEN_LENGTH) {
      throw new Error(`DOORWATCH_ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`);
    }
    const tokenHash = hashToken(fromEnv);
    await putAdminOperator(db, BOOTSTRAP_OPERATOR_ID, BOOTSTRAP_NAME, tokenHash);
    return { action: 'env' };
  }
  const existing = await findOperatorById(db, BOOTSTRAP_OPERATOR_ID);
  if (existing) return { action: 'kept' };
  const token = generateOperatorToken();
  await insertOperator(db, { id: BOOTSTRAP_OPERATOR_ID, name: BOOTSTRAP_NAME, role: 'admin', tokenHash: hashToken(token) });
  return { action: 'generated', token };
}

/** Startup hook (lib/instance/prepare-instance.ts): install the bootstrap admin and print a generated token once. */
export async function prepareBootstrapAdmin(db: Db): Promise<void> {
  const result = await ensureBootstrapAdmin(db);
  if (result.action === 'generated') {
    // Deliberately not a log line (logs never carry tokens): a one-time notice on the terminal.
    process.stdout.write(
      [
        '',
        '  Doorwatch generated a bootstrap admin token (shown only this once, stored hashed):',
        `    ${result.token}`,
        '  Use it as "Authorization: Bearer <token>" or to log in; set DOORWATCH_ADMIN_TOKEN to choose your own.',
        '',
      ].join('\n'),
    );
  }
}
