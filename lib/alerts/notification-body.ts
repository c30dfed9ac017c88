// What a contact point receives for one transition (pure): the standard JSON body
// (ZAlertNotification), or for Slack-compatible incoming webhooks {"text": …} in mrkdwn with a
// <url|label> link to the sessions of the alert's window and server. The summary is a plain
// sentence naming the server: a resolved alert says the condition no longer holds, never "0 > 0".
import { INSTANT_MEASURES, MEASURE_LABELS, type TAlertComparison, type TAlertNotification } from '@/lib/contract/api/alerts';
import { toIsoMs } from '@/lib/contract/timestamp';
import type { AlertTransitionRow } from '@/lib/store/alert-transitions';
import type { ContactPointFormat } from '@/lib/store/alert-contact-points';
import { incidentPath } from '@/lib/incidents/incident-kind';
import { sessionsPath } from './sessions-link';

const fmtWindow = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
const fmtValue = (v: number | null) => (v === null || !Number.isFinite(v) ? 'no data' : String(Math.round(v * 1000) / 1000));

const COMPARISON_WORDS: Record<TAlertComparison, string> = {
  gt: 'more than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
};

/** The server a transition is about: its series, else (history from before per-server evaluation) the rule's scope. */
export function transitionServer(t: Pick<AlertTransitionRow, 'series' | 'server'>): string | null {
  return t.series || t.server;
}

/** The alert a transition belongs to (rule and server): deliveries of one alert supersede each other. */
export const alertKey = (t: Pick<AlertTransitionRow, 'ruleId' | 'series'>) => `${t.ruleId}/${t.series}`;

/**
 * "FIRING: Naive resume on srv-a — naive resumes: 3, more than 0 over the last 5 min"
 * "RESOLVED: Naive resume on srv-a — naive resumes: 0, no longer more than 0 over the last 5 min"
 * "FIRING: Ongoing deadlock on srv-a — ongoing deadlocks: 2, more than 0" (an instant measure: no window)
 */
export function transitionSummary(t: AlertTransitionRow): string {
  const server = transitionServer(t);
  const over = INSTANT_MEASURES.has(t.measure) ? '' : ` over the last ${fmtWindow(t.windowMs)}`;
  const condition = `${COMPARISON_WORDS[t.comparison]} ${t.threshold}${over}`;
  const stopped = t.kind === 'resolved' || t.kind === 'cleared';
  return `${t.kind.toUpperCase()}: ${t.ruleName} on ${server ?? 'all servers'} — ${MEASURE_LABELS[t.measure]}: ${fmtValue(t.value)}, ${stopped ? `no longer ${condition}` : condition}`;
}

/** The alert's window (the rule's window up to the transition, to the next whole minute), filtered to its evidence. */
export function transitionSessionsPath(t: Pick<AlertTransitionRow, 'server' | 'series' | 'at' | 'windowMs' | 'measure'>): string {
  const to = Math.ceil((t.at + 1) / 60_000) * 60_000;
  return sessionsPath(transitionServer(t), t.at - t.windowMs, to, t.measure);
}

export const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function notificationBody(
  format: ContactPointFormat,
  t: AlertTransitionRow,
  origin: string,
  incidentId: string | null = null,
): string {
  const url = `${origin}${transitionSessionsPath(t)}`;
  const incidentUrl = incidentId ? `${origin}${incidentPath(incidentId)}` : null;
  const summary = transitionSummary(t);
  if (format === 'slack') {
    const incident = incidentUrl ? ` · <${incidentUrl}|Incident>` : '';
    return JSON.stringify({
      text: `*${slackEscape(summary)}*\n<${url}|Sessions in the alert's window>${incident} · ${slackEscape(toIsoMs(t.at))}`,
    });
  }
  const body: TAlertNotification = {
    type: 'alert.transition',
    transitionId: t.id,
    alertKey: alertKey(t),
    sequence: t.sequence,
    kind: t.kind,
    at: toIsoMs(t.at),
    server: transitionServer(t),
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
    incidentId,
    incidentUrl,
  };
  return JSON.stringify(body);
}
