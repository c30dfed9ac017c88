// Puts one transition's notification for one contact point into the outbox, inside the
// transition's transaction (carrying its incident's id; stored "suppressed", not sent, when the
// incident is acknowledged or a silence matches: incident-link.ts). Two promises to the receiver:
// - newest state wins: the row supersedes the older unsent rows of the same alert (rule and server)
//   to the same contact point, so a receiver that was failing and comes back is sent the newest
//   state, never a stale "resolved" after a newer "firing" (the body's `sequence` lets a receiver
//   order what it does get);
// - a rate bound per contact point: past DOORWATCH_ALERT_MAX_PER_MINUTE rows queued in the last
//   minute the row is stored "held" (not sent) and counted in one summary later (held-summary.ts).
import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@/lib/db/sql';
import type { AlertTransitionRow } from '@/lib/store/alert-transitions';
import type { ContactPointRow } from '@/lib/store/alert-contact-points';
import { countQueuedSince, insertAlertDelivery, supersedeOlderDeliveries } from '@/lib/store/alert-deliveries';
import { countSuppressed } from '@/lib/store/silences';
import type { IncidentLink } from './incident-link';
import { alertKey, notificationBody } from './notification-body';

export interface QueueOptions {
  /** Origin of links in notifications (lib/alerts/link-origin.ts). */
  origin: string;
  /** DOORWATCH_ALERT_MAX_PER_MINUTE: rows queued per contact point per minute. */
  maxPerMinute: number;
}

export const RATE_WINDOW_MS = 60_000;

export async function queueDelivery(
  tx: SqlExecutor,
  cp: Pick<ContactPointRow, 'id' | 'format'>,
  row: AlertTransitionRow,
  nowMs: number,
  o: QueueOptions,
  link: IncidentLink | null = null,
): Promise<'pending' | 'held' | 'suppressed'> {
  const id = `msg_${randomUUID()}`;
  const key = alertKey(row);
  const queued = await countQueuedSince(tx, cp.id, nowMs - RATE_WINDOW_MS);
  const suppressed = link?.suppressedBy ?? null;
  const status = suppressed ? 'suppressed' : queued >= o.maxPerMinute ? 'held' : 'pending';
  if (suppressed && link?.silenceId) await countSuppressed(tx, link.silenceId);
  await supersedeOlderDeliveries(tx, { contactPointId: cp.id, alertKey: key, sequence: row.sequence, byId: id });
  await insertAlertDelivery(tx, {
    id,
    transitionId: row.id,
    contactPointId: cp.id,
    body: notificationBody(cp.format, row, o.origin, link?.incidentId ?? null),
    createdAt: nowMs,
    alertKey: key,
    sequence: row.sequence,
    status,
    lastError: suppressed
      ? suppressed
      : status === 'held'
        ? `held back: ${queued} notifications queued to this contact point in the last minute (DOORWATCH_ALERT_MAX_PER_MINUTE=${o.maxPerMinute}); it will be counted in a summary`
        : null,
  });
  return status;
}
