// What a contact point receives instead of the notifications the rate bound held back (pure): how
// many, and each alert's newest held state with its sequence (the standard body, ZAlertHeldSummary),
// or the same as one Slack mrkdwn text.
import type { TAlertHeldSummary } from '@/lib/contract/api/alerts';
import { toIsoMs } from '@/lib/contract/timestamp';
import type { ContactPointFormat } from '@/lib/store/alert-contact-points';
import type { HeldDelivery } from '@/lib/store/alert-held-deliveries';
import { slackEscape } from './notification-body';

const LISTED = 20;

export interface HeldSummary {
  heldBack: number;
  maxPerMinute: number;
  /** Each alert's newest held change that nothing newer was queued after. */
  alerts: HeldDelivery[];
}

/** "12 notifications to this contact point were held back (at most 10 a minute). Newest held states: FIRING Naive resume on srv-a; …" */
export function heldSummaryText(s: HeldSummary): string {
  const head = `${s.heldBack} notification${s.heldBack === 1 ? ' was' : 's were'} held back for this contact point (at most ${s.maxPerMinute} a minute).`;
  if (s.alerts.length === 0) return `${head} Newer notifications of the same alerts were sent since.`;
  const listed = s.alerts.slice(0, LISTED).map((a) => `${a.kind.toUpperCase()} ${a.ruleName} on ${a.series || 'all servers'}`);
  const more = s.alerts.length > LISTED ? `; and ${s.alerts.length - LISTED} more` : '';
  return `${head} Newest held states: ${listed.join('; ')}${more}.`;
}

export function heldSummaryBody(format: ContactPointFormat, s: HeldSummary, origin: string): string {
  const alertsUrl = `${origin}/alerts`;
  const summary = heldSummaryText(s);
  if (format === 'slack') return JSON.stringify({ text: `*${slackEscape(summary)}*\n<${alertsUrl}|Alerts and their history>` });
  const body: TAlertHeldSummary = {
    type: 'alert.summary',
    heldBack: s.heldBack,
    maxPerMinute: s.maxPerMinute,
    alerts: s.alerts.map((a) => ({
      alertKey: a.alertKey,
      sequence: a.sequence,
      kind: a.kind,
      at: toIsoMs(a.at),
      ruleId: a.ruleId,
      ruleName: a.ruleName,
      server: a.series || null,
    })),
    summary,
    alertsUrl,
  };
  return JSON.stringify(body);
}
