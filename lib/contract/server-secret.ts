// A server's webhook secret: its format, and a new one. Server-side only (node:crypto); the server name the
// browser also needs is in server-name.ts.
import { randomBytes } from 'node:crypto';

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function isWellFormedSecret(secret: string): boolean {
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  if (!m) return false;
  const bytes = Buffer.from(m[1], 'base64').length;
  return bytes >= 24 && bytes <= 64;
}
