// Posts a signed batch the way a Standard Webhooks sender does (used by integration,
// browser and end-to-end tests).
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export interface PostOptions {
  msgId?: string;
  /** Signing time; defaults to now. */
  timestamp?: Date;
  /** Overrides the body (e.g. to tamper with it after signing). */
  body?: string;
  contentType?: string;
}

export async function postEvents(baseUrl: string, server: string, secret: string, events: unknown[], options: PostOptions = {}) {
  const payload = JSON.stringify({ events });
  return postSigned(baseUrl, server, secret, payload, options);
}

export async function postSigned(baseUrl: string, server: string, secret: string, payload: string, options: PostOptions = {}) {
  const msgId = options.msgId ?? `msg_${randomUUID()}`;
  const timestamp = options.timestamp ?? new Date();
  const signature = new Webhook(secret).sign(msgId, timestamp, payload);
  const res = await fetch(`${baseUrl}/api/v1/ingest/${server}`, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'webhook-id': msgId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body: options.body ?? payload,
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}
