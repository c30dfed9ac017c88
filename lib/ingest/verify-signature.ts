// Standard Webhooks verification with the maintained `standardwebhooks` package: HMAC-SHA256
// over `id.timestamp.body`, constant-time compare, 5-minute timestamp tolerance. Any of the
// server's active secrets may match (rotation grace period).
import { Webhook } from 'standardwebhooks';

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function readWebhookHeaders(headers: Headers): WebhookHeaders | null {
  const id = headers.get('webhook-id');
  const timestamp = headers.get('webhook-timestamp');
  const signature = headers.get('webhook-signature');
  if (!id || !timestamp || !signature) return null;
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };
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
