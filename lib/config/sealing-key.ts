// The sealing keys from the environment (DOORWATCH_SECRET_KEY, and _PREVIOUS while keys change):
// read by lib/config at start-up; lib/store/servers/secret-sealing.ts seals and opens with them.
export type SealingKey = Buffer;

export class SecretSealingError extends Error {
  constructor(
    readonly code: 'invalid_secret_key' | 'secret_key_missing' | 'secret_key_mismatch' | 'sealed_secret_malformed',
    message: string,
  ) {
    super(message);
    this.name = 'SecretSealingError';
  }
}

function parseKey(env: Record<string, string | undefined>, name: string): SealingKey | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : Buffer.alloc(0);
  if (key.length !== 32) {
    throw new SecretSealingError(
      'invalid_secret_key',
      `${name} must be base64 of 32 random bytes (generate one with: openssl rand -base64 32)`,
    );
  }
  return key;
}

/** The key from DOORWATCH_SECRET_KEY, or null when unset; a malformed key is an error, never ignored. */
export function readSealingKey(env: Record<string, string | undefined>): SealingKey | null {
  return parseKey(env, 'DOORWATCH_SECRET_KEY');
}

/**
 * DOORWATCH_SECRET_KEY_PREVIOUS while changing keys: secrets sealed with it still open, and
 * start-up re-seals them with the current key. Remove it once every instance has restarted.
 */
export function readPreviousSealingKey(env: Record<string, string | undefined>): SealingKey | null {
  return parseKey(env, 'DOORWATCH_SECRET_KEY_PREVIOUS');
}
