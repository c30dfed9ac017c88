// A local webhook endpoint for Doorwatch's outbound alert notifications: node:http on loopback,
// Standard Webhooks verification (the `standardwebhooks` package) once the secret is known, and a
// script of answers to play back (e.g. fail twice, then succeed).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedNotification {
  webhookId: string;
  body: string;
  json: any;
  signatureValid: boolean;
  status: number;
}

export interface WebhookReceiver {
  url: string;
  /** The contact point's whsec_ secret (known after creating it); requests are verified with it. */
  secret: string | null;
  requests: ReceivedNotification[];
  /** Statuses for the next requests, in order; then `fallback`. */
  script(...statuses: number[]): void;
  fallback: number;
  waitFor(predicate: (r: ReceivedNotification[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(fallback = 200): Promise<WebhookReceiver> {
  const queue: number[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    secret: null,
    requests: [],
    fallback,
    script: (...s) => void queue.push(...s),
    async waitFor(predicate, what, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate(receiver.requests)) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what} (got ${receiver.requests.length} requests)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (n: string) => String(req.headers[n] ?? '');
      let signatureValid = false;
      try {
        if (receiver.secret) {
          new Webhook(receiver.secret).verify(body, {
            'webhook-id': header('webhook-id'),
            'webhook-timestamp': header('webhook-timestamp'),
            'webhook-signature': header('webhook-signature'),
          });
          signatureValid = true;
        }
      } catch {
        signatureValid = false;
      }
      const status = queue.shift() ?? receiver.fallback;
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* recorded as is */
      }
      receiver.requests.push({ webhookId: header('webhook-id'), body, json, signatureValid, status });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
