// Operator tokens: `dw_` + 32 random bytes (base64url). They carry 256 bits of entropy, so a
// plain SHA-256 is the right stored form (a slow password hash buys nothing here and would
// cost every API request); lookups go by the hash, which is unique in OperatorToken.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'dw_';

export function generateOperatorToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** Shortest token that can count as high-entropy. */
export const HIGH_ENTROPY_MIN_LENGTH = 32;
/** Bits by the string's own character-frequency estimate a high-entropy token needs. */
export const HIGH_ENTROPY_MIN_BITS = 160;

/**
 * Whether a presented token looks random enough that online guessing is hopeless at any rate,
 * so a throttled address may still use it (credential-throttle.ts). A heuristic on the string:
 * at least 32 characters, at least 160 bits by its character frequencies (length × Shannon
 * entropy), and not mostly runs or steps (`aaaa`, `abcd`). Generated tokens (`dw_` + 32 random
 * bytes) and `openssl rand -hex 32` / `-base64 32` score 190 bits or more; a phrase such as
 * `doorwatch-admin-token-production` scores about 120.
 */
export function isHighEntropyToken(token: string): boolean {
  if (token.length < HIGH_ENTROPY_MIN_LENGTH) return false;
  const counts = new Map<string, number>();
  for (const ch of token) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= n * Math.log2(n / token.length);
  let steps = 0;
  for (let i = 1; i < token.length; i++) if (Math.abs(token.charCodeAt(i) - token.charCodeAt(i - 1)) <= 1) steps++;
  return bits >= HIGH_ENTROPY_MIN_BITS && steps * 2 <= token.length - 1;
}
