// Webhook secrets at rest. Doorwatch must read a server's secret to verify its signatures
// (HMAC), so it cannot store a hash the way it does for operator tokens. With
// DOORWATCH_SECRET_KEY set (base64 of 32 bytes), secrets are sealed with AES-256-GCM before
// they are written, so a copy of the database (a backup, a replica, a support dump) does not
// hand out the keys to forge events. Without it they are stored as given and start-up says so.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SecretSealingError, type SealingKey } from '@/lib/config/sealing-key';

const PREFIX = 'dwsealed:v1:';
// Binds a sealed value to its purpose: it cannot be moved into another sealed field unnoticed.
const PURPOSES = {
  serverSecret: 'doorwatch/server-secret/v1',
  contactPointSecret: 'doorwatch/contact-point-secret/v1',
  oidcState: 'doorwatch/oidc-sign-in-state/v1',
} as const;
export type SealingPurpose = keyof typeof PURPOSES;

export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);

/** What to store: sealed with the key, or the secret itself when there is no key. */
export function sealSecret(secret: string, key: SealingKey | null, purpose: SealingPurpose = 'serverSecret'): string {
  if (key === null) return secret;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(PURPOSES[purpose]));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${PREFIX}${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${sealed.toString('base64')}`;
}

/**
 * The secret from what was stored: sealed values need the key they were sealed with (the
 * current key, or the previous one while keys change). `withPrevious` says which one opened it.
 */
export function openSecretWith(
  stored: string,
  key: SealingKey | null,
  previous: SealingKey | null = null,
  purpose: SealingPurpose = 'serverSecret',
): { secret: string; withPrevious: boolean } {
  if (!isSealed(stored)) return { secret: stored, withPrevious: false };
  if (key === null && previous === null) {
    throw new SecretSealingError(
      'secret_key_missing',
      'webhook secrets in the database are sealed, but DOORWATCH_SECRET_KEY is not set: start Doorwatch with the key they were sealed with',
    );
  }
  const parts = stored.slice(PREFIX.length).split(':');
  if (parts.length !== 3) throw new SecretSealingError('sealed_secret_malformed', 'a sealed webhook secret in the database is malformed');
  const [iv, tag, data] = parts.map((p) => Buffer.from(p, 'base64'));
  const attempt = (k: SealingKey): string | null => {
    try {
      const decipher = createDecipheriv('aes-256-gcm', k, iv);
      decipher.setAAD(Buffer.from(PURPOSES[purpose]));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  };
  const current = key === null ? null : attempt(key);
  if (current !== null) return { secret: current, withPrevious: false };
  const old = previous === null ? null : attempt(previous);
  if (old !== null) return { secret: old, withPrevious: true };
  throw new SecretSealingError(
    'secret_key_mismatch',
    'DOORWATCH_SECRET_KEY does not open the webhook secrets in the database: it is not the key they were sealed with (while changing keys, set the old one as DOORWATCH_SECRET_KEY_PREVIOUS)',
  );
}

export function openSecret(
  stored: string,
  key: SealingKey | null,
  previous: SealingKey | null = null,
  purpose: SealingPurpose = 'serverSecret',
): string {
  return openSecretWith(stored, key, previous, purpose).secret;
}
