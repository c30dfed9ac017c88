// Standard Webhooks verification with the maintained `standardwebhooks` package: HMAC-SHA256
// over `id.timestamp.body` (the digest by Node's crypto: native-webhook.ts), constant-time
// compare, 5-minute timestamp tolerance. Any of the server's active secrets may match (rotation
// grace period).
import { NativeWebhook } from './native-webhook';

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

// Svix (the reference Standard Webhooks sender) brands the same three headers `svix-*`; the
// Standard Webhooks libraries accept either set, and so does Doorwatch. A set is used whole,
// never mixed: `webhook-*` when all three are present, else `svix-*`.
const HEADER_SETS = [
  ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
  ['svix-id', 'svix-timestamp', 'svix-signature'],
] as const;

export function readWebhookHeaders(headers: Headers): WebhookHeaders | null {
  for (const [idName, timestampName, signatureName] of HEADER_SETS) {
    const id = headers.get(idName);
    const timestamp = headers.get(timestampName);
    const signature = headers.get(signatureName);
    if (id && timestamp && signature) return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };
  }
  return null;
}

export function verifyWebhook(rawBody: string, headers: WebhookHeaders, secrets: readonly string[]): boolean {
  for (const secret of secrets) {
    try {
      // jsonParse off: a valid signature over a body that is not JSON is a 400, not a 401.
      new NativeWebhook(secret).verify(rawBody, headers as unknown as Record<string, string>, { jsonParse: false });
      return true;
    } catch {
      // wrong secret, bad signature or stale timestamp: try the next secret
    }
  }
  return false;
}

/** Standard Webhooks' timestamp tolerance (the `standardwebhooks` package's). */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Why verification failed, for operators only (the sender gets one generic 401). Run on the
 * failure path only: a signature that matches one of the secrets over the sent timestamp means
 * the sender's clock is off (skewMs = sender − Doorwatch); otherwise no active secret signed it.
 */
export function classifyVerificationFailure(
  rawBody: string,
  headers: WebhookHeaders,
  secrets: readonly string[],
  now = Date.now(),
): { reason: 'signature_mismatch' | 'timestamp_out_of_tolerance'; skewMs: number | null } {
  const seconds = Number(headers['webhook-timestamp']);
  if (!Number.isInteger(seconds)) return { reason: 'signature_mismatch', skewMs: null };
  const skewMs = seconds * 1000 - now;
  const sent = headers['webhook-signature']
    .split(' ')
    .map((s) => s.split(',')[1])
    .filter(Boolean);
  for (const secret of secrets) {
    try {
      const expected = new NativeWebhook(secret).sign(headers['webhook-id'], new Date(seconds * 1000), rawBody).split(',')[1];
      if (sent.includes(expected)) {
        return Math.abs(skewMs) > TIMESTAMP_TOLERANCE_MS
          ? { reason: 'timestamp_out_of_tolerance', skewMs }
          : { reason: 'signature_mismatch', skewMs: null };
      }
    } catch {
      // a secret that cannot sign (malformed) matches nothing
    }
  }
  return { reason: 'signature_mismatch', skewMs: null };
}
