// Standard Webhooks signing with node:crypto (no runtime dependency): HMAC-SHA256 keyed with the
// base64 part of the `whsec_` secret, over `id.timestamp.body`, sent as `v1,<base64>`.
import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Signs one message; the timestamp is in seconds since the epoch. */
export type Signer = (messageId: string, timestampSeconds: number, body: string) => string;

/** Throws on a malformed secret, so a misconfigured server fails at startup, not per batch. */
export function createSigner(secret: string): Signer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded === '' || !BASE64.test(encoded)) {
    throw new TypeError('createReporter: secret must be "whsec_" followed by base64 (as Doorwatch issues it)');
  }
  const key = Buffer.from(encoded, 'base64');
  return (messageId, timestampSeconds, body) =>
    `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}
