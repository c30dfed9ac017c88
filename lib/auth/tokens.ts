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
