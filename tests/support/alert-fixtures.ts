// Shared steps of the alert integration tests (tests/integration/alert*.test.ts): the API as an
// operator, a naive resume posted as a server, polling for a state, and a contact point whose
// whsec_ secret is handed to a local receiver (tests/support/webhook-receiver.ts) for verification.
import assert from 'node:assert/strict';
import type { AppServer } from './app-server';
import { TEST_ADMIN_TOKEN } from './app-server';
import { postEvents, postSigned } from './post-events';
import type { WebhookReceiver } from './webhook-receiver';
import type { AlertTransitionRow } from '@/lib/store/alert-transitions';

export const api = async (app: AppServer, path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
  const res = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${init.token ?? TEST_ADMIN_TOKEN}` },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
};

/** A naive resume that began two seconds ago: opened, durable upgrade, drop, the resume answered as if nothing happened. */
export function naiveResumeEvents(token: string) {
  const t = Date.now() - 2000;
  const at = (ms: number) => new Date(t + ms).toISOString();
  return [
    { id: `${token}-o`, token, type: 'session.opened', at: at(0), data: {} },
    { id: `${token}-u`, token, type: 'upgrade.accepted', at: at(100), data: { eventId: 3 } },
    { id: `${token}-d`, token, type: 'stream.dropped', at: at(150), data: {} },
    { id: `${token}-r`, token, type: 'resume.requested', at: at(200), data: { lastEventId: 3 } },
    { id: `${token}-a`, token, type: 'resume.accepted', at: at(240), data: { replayed: 0 } },
  ];
}

/** A naive resume of `token` on `server`, reported as served by `version` when given (the batch's envelope). */
export async function postNaiveResume(app: AppServer, server: string, secret: string, token: string, version?: string) {
  const events = naiveResumeEvents(token);
  const res = version
    ? await postSigned(app.url, server, secret, JSON.stringify({ version, events }))
    : await postEvents(app.url, server, secret, events);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** A stored transition of an "Ongoing deadlock" rule on edge-1, as the evaluator writes it, with `over` on top. */
export const deadlockTransition = (
  over: Partial<AlertTransitionRow> & Pick<AlertTransitionRow, 'id' | 'at' | 'kind'>,
): AlertTransitionRow => ({
  ruleId: 'rule-deadlocks',
  ruleName: 'Ongoing deadlock',
  value: 2,
  measure: 'deadlocks_ongoing',
  comparison: 'gt',
  threshold: 0,
  windowMs: 300_000,
  server: null,
  series: 'edge-1',
  sequence: 1,
  ...over,
});

export async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function addContactPoint(
  app: AppServer,
  receiver: WebhookReceiver,
  name: string,
  format: 'standard' | 'slack' = 'standard',
): Promise<string> {
  const res = await api(app, '/api/v1/alerts/contact-points', { method: 'POST', body: { name, url: receiver.url, format } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.match(res.body.secret, /^whsec_/);
  receiver.secret = res.body.secret;
  return res.body.contactPoint.id;
}
