// Sends due notifications from the outbox (lib/store/alert-deliveries.ts): Standard Webhooks
// signed with the contact point's whsec_ secret (webhook-id = the delivery id, the same on every
// retry; a fresh timestamp and signature per attempt), retried with exponential backoff (a
// Retry-After is honoured) until maxAttempts, then marked failed for the UI to show.
import { Webhook } from 'standardwebhooks';
import type { SqlExecutor } from '@/lib/db/sql';
import { claimDueDeliveries, recordDeliveryAttempt, type AlertDeliveryRow } from '@/lib/store/alert-deliveries';
import { contactPointForDelivery } from '@/lib/store/alert-contact-points';
import { alertLog } from './alert-log';

export interface DeliveryOptions {
  maxAttempts: number;
  retryBaseMs: number;
  /** Per attempt; the claim on a row lasts a little longer. */
  timeoutMs?: number;
  now?: () => number;
}

const MAX_RETRY_DELAY_MS = 3_600_000;
const BATCH = 20;

/** Delay before attempt `attempt + 1` after `attempt` failed: base × 2^(attempt−1), at most 1 h, never sooner than Retry-After. */
export function retryDelayMs(attempt: number, baseMs: number, retryAfterMs: number | null = null): number {
  const backoff = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.max(backoff, Math.min(MAX_RETRY_DELAY_MS, retryAfterMs ?? 0));
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

interface AttemptResult {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
  retryAfterMs: number | null;
}

async function attempt(row: AlertDeliveryRow, url: string, secret: string, timeoutMs: number): Promise<AttemptResult> {
  const sentAt = new Date();
  try {
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Doorwatch-Alerts/1',
        'webhook-id': row.id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(row.id, sentAt, row.body),
      },
      body: row.body,
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { ok: true, httpStatus: res.status, error: null, retryAfterMs: null };
    return {
      ok: false,
      httpStatus: res.status,
      error: `answered HTTP ${res.status}`,
      retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
    };
  } catch (err) {
    const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    return { ok: false, httpStatus: null, error: `not reached: ${cause}`, retryAfterMs: null };
  }
}

/** Sends every delivery due now (in batches); returns how many attempts were made. */
export async function deliverDueNotifications(sql: SqlExecutor, o: DeliveryOptions): Promise<number> {
  const now = o.now ?? Date.now;
  const timeoutMs = o.timeoutMs ?? 10_000;
  let attempts = 0;
  for (;;) {
    const claimed = await claimDueDeliveries(sql, now(), timeoutMs + 5_000, BATCH);
    if (claimed.length === 0) return attempts;
    await Promise.all(
      claimed.map(async (row) => {
        attempts++;
        const cp = await contactPointForDelivery(sql, row.contactPointId);
        const result: AttemptResult = cp
          ? await attempt(row, cp.url, cp.secret, timeoutMs)
          : { ok: false, httpStatus: null, error: 'the contact point was removed', retryAfterMs: null };
        const at = now();
        const final = !result.ok && (cp === null || row.attempts >= o.maxAttempts);
        if (!result.ok) alertLog.deliveryFailed(row.id, cp?.name ?? row.contactPointId, result.error ?? 'failed', final);
        await recordDeliveryAttempt(sql, row.id, {
          status: result.ok ? 'delivered' : final ? 'failed' : 'pending',
          httpStatus: result.httpStatus,
          error: result.error,
          nextAttemptAt: result.ok || final ? at : at + retryDelayMs(row.attempts, o.retryBaseMs, result.retryAfterMs),
          atMs: at,
        });
      }),
    );
  }
}
