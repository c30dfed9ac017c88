// Reports what the rate bound held back (lib/alerts/queue-delivery.ts): once a contact point has
// room again under DOORWATCH_ALERT_MAX_PER_MINUTE, its held rows become one summary delivery (how
// many, and each alert's newest held state) and are marked "summarized" in the same transaction,
// so nothing is dropped without the receiver being told how much.
import { randomUUID } from 'node:crypto';
import type { Sql } from '@/lib/db/sql';
import { contactPointForDelivery } from '@/lib/store/alert-contact-points';
import { countQueuedSince, insertAlertDelivery } from '@/lib/store/alert-deliveries';
import {
  contactPointsWithHeld,
  heldDeliveries,
  markSummarized,
  newestQueuedSequences,
  type HeldDelivery,
} from '@/lib/store/alert-held-deliveries';
import { heldSummaryBody } from './held-summary-body';
import { RATE_WINDOW_MS, type QueueOptions } from './queue-delivery';

/** Queues one summary per contact point with held rows and room under the bound; how many were queued. */
export async function queueHeldSummaries(sql: Sql, nowMs: number, o: QueueOptions): Promise<number> {
  let queued = 0;
  for (const contactPointId of await contactPointsWithHeld(sql)) {
    if ((await countQueuedSince(sql, contactPointId, nowMs - RATE_WINDOW_MS)) >= o.maxPerMinute) continue;
    const cp = await contactPointForDelivery(sql, contactPointId);
    const held = await heldDeliveries(sql, contactPointId);
    if (!cp || held.length === 0) continue; // a removed contact point's rows stay held, visible in the API
    const newest = new Map<string, HeldDelivery>();
    for (const h of held) if ((newest.get(h.alertKey)?.sequence ?? -1) < h.sequence) newest.set(h.alertKey, h);
    const sent = await newestQueuedSequences(sql, contactPointId, [...newest.keys()]);
    const alerts = [...newest.values()].filter((h) => (sent.get(h.alertKey) ?? -1) < h.sequence).sort((a, b) => a.at - b.at);
    const id = `msg_${randomUUID()}`;
    const latest = held.reduce((a, b) => (b.at > a.at ? b : a));
    await sql.transaction(async (tx) => {
      await insertAlertDelivery(tx, {
        id,
        transitionId: latest.transitionId,
        contactPointId,
        body: heldSummaryBody(cp.format, { heldBack: held.length, maxPerMinute: o.maxPerMinute, alerts }, o.origin),
        createdAt: nowMs,
        alertKey: null,
        sequence: 0,
        status: 'pending',
      });
      await markSummarized(
        tx,
        held.map((h) => h.id),
        id,
      );
    });
    queued++;
  }
  return queued;
}
