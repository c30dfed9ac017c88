// What a contact point receives for one transition (pure): the standard JSON body
// (ZAlertNotification), or for Slack-compatible incoming webhooks {"text": …} in mrkdwn with a
// <url|label> link to the sessions of the alert's window and server.
import { COMPARISON_SYMBOLS, MEASURE_LABELS, type TAlertNotification } from '@/lib/contract/api/alerts';
import { toIsoMs } from '@/lib/contract/timestamp';
import type { AlertTransitionRow } from '@/lib/store/alert-transitions';
import type { ContactPointFormat } from '@/lib/store/alert-contact-points';
import { sessionsPath } from './sessions-link';

const fmtWindow = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
const fmtValue = (v: number | null) => (v === null || !Number.isFinite(v) ? 'no data' : String(Math.round(v * 1000) / 1000));

/** "FIRING: Naive resume — naive resumes 3 > 0 over 5 min (all servers)" */
export function transitionSummary(t: AlertTransitionRow): string {
  const scope = t.server === null ? 'all servers' : `server ${t.server}`;
  return `${t.kind.toUpperCase()}: ${t.ruleName} — ${MEASURE_LABELS[t.measure]} ${fmtValue(t.value)} ${COMPARISON_SYMBOLS[t.comparison]} ${t.threshold} over ${fmtWindow(t.windowMs)} (${scope})`;
}

/** The alert's window: the rule's window up to the transition, to the next whole minute. */
export function transitionSessionsPath(t: Pick<AlertTransitionRow, 'server' | 'at' | 'windowMs'>): string {
  const to = Math.ceil((t.at + 1) / 60_000) * 60_000;
  return sessionsPath(t.server, t.at - t.windowMs, to);
}

const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function notificationBody(format: ContactPointFormat, t: AlertTransitionRow, origin: string): string {
  const url = `${origin}${transitionSessionsPath(t)}`;
  const summary = transitionSummary(t);
  if (format === 'slack') {
    return JSON.stringify({ text: `*${slackEscape(summary)}*\n<${url}|Sessions in the alert's window> · ${slackEscape(toIsoMs(t.at))}` });
  }
  const body: TAlertNotification = {
    type: 'alert.transition',
    transitionId: t.id,
    kind: t.kind,
    at: toIsoMs(t.at),
    rule: {
      id: t.ruleId,
      name: t.ruleName,
      measure: t.measure,
      comparison: t.comparison,
      threshold: t.threshold,
      windowSeconds: Math.round(t.windowMs / 1000),
      server: t.server,
    },
    value: t.value !== null && Number.isFinite(t.value) ? t.value : null,
    summary,
    sessionsUrl: url,
  };
  return JSON.stringify(body);
}
