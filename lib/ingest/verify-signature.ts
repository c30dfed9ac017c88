// Standard Webhooks verification with the maintained `standardwebhooks` package: HMAC-SHA256
// over `id.timestamp.body`, constant-time compare, 5-minute timestamp tolerance. Any of the
// server's active secrets may match (rotation grace period).
import { Webhook } from 'standardwebhooks';

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
      new Webhook(secret).verify(rawBody, headers as unknown as Record<string, string>, { jsonParse: false });
      return true;
    } catch {
      // wrong secret, bad signature or stale timestamp: try the next secret
    }
  }
  return false;
}
