// One evaluation pass over every rule (run by the leader, lib/alerts/alert-schedule.ts). A rule is
// evaluated per server: its own server, or (a rule for all servers) every server Doorwatch knows,
// each with its own state, so one server's deadlock fires "on srv-a" and another's fires on its
// own. Per rule and server: measure, step the state (evaluate-rule.ts, pure), and record a change
// with its history row and one outbox row per contact point in one transaction (queue-delivery.ts).
// Only firing and resolved are notified (pending and cleared are the `for` duration doing its
// job: kept in the history, not paged); those two are linked to the server's incident of the
// rule's kind, a firing opening or joining it (incident-link.ts).
import { randomUUID } from 'node:crypto';
import type { Sql } from '@/lib/db/sql';
import { listAlertRules, type AlertRuleRow } from '@/lib/store/alert-rules';
import { alertableServers, readAlertStates, writeAlertState, type AlertStateRow } from '@/lib/store/alert-states';
import { insertAlertTransition, type AlertTransitionRow } from '@/lib/store/alert-transitions';
import { contactPointForDelivery, type ContactPointRow } from '@/lib/store/alert-contact-points';
import { alertLog } from './alert-log';
import { evaluateRule } from './evaluate-rule';
import { queueHeldSummaries } from './held-summary';
import { linkIncident } from './incident-link';
import { measure } from './measures';
import { queueDelivery, type QueueOptions } from './queue-delivery';

const NOTIFIED = new Set(['firing', 'resolved']);

export type EvaluationOptions = QueueOptions;

export interface EvaluationReport {
  evaluated: number;
  transitions: AlertTransitionRow[];
}

async function measureRule(sql: Sql, rule: AlertRuleRow, server: string, nowMs: number): Promise<number | null> {
  if (!rule.enabled) return Number.NaN;
  try {
    return await measure(sql, rule.measure, { fromMs: nowMs - rule.windowMs, toMs: nowMs, server });
  } catch (err) {
    alertLog.measureFailed(rule.name, err);
    return null;
  }
}

type ContactPoint = Pick<ContactPointRow, 'id' | 'format'>;

/** One rule and server: its next state, and a transition with its deliveries when the state changed. */
async function stepSeries(
  sql: Sql,
  rule: AlertRuleRow,
  series: string,
  prev: AlertStateRow | null,
  value: number,
  nowMs: number,
  contactPoints: () => Promise<ContactPoint[]>,
  o: EvaluationOptions,
): Promise<AlertTransitionRow | null | false> {
  const { next, transition } = evaluateRule(rule, prev, value, nowMs);
  const targets = transition && NOTIFIED.has(transition) ? await contactPoints() : [];
  return sql.transaction(async (tx) => {
    const version = await writeAlertState(tx, { ruleId: rule.id, series, ...next, value, evaluatedAt: nowMs }, prev?.version ?? null);
    if (version === null) return false; // another evaluator recorded this step first
    if (!transition) return null;
    const row: AlertTransitionRow = {
      id: randomUUID(),
      ruleId: rule.id,
      ruleName: rule.name,
      kind: transition,
      at: nowMs,
      value: Number.isFinite(value) ? value : null,
      measure: rule.measure,
      comparison: rule.comparison,
      threshold: rule.threshold,
      windowMs: rule.windowMs,
      server: rule.server,
      series,
      sequence: version,
    };
    await insertAlertTransition(tx, row);
    const link = NOTIFIED.has(transition) ? await linkIncident(tx, row, nowMs) : null;
    for (const cp of targets) await queueDelivery(tx, cp, row, nowMs, o, link);
    return row;
  });
}

export async function evaluateAlerts(sql: Sql, nowMs: number, o: EvaluationOptions): Promise<EvaluationReport> {
  // Summaries of what the rate bound held back go first, so a storm that goes on cannot starve them.
  await queueHeldSummaries(sql, nowMs, o);
  const [rules, states, servers] = await Promise.all([listAlertRules(sql), readAlertStates(sql), alertableServers(sql)]);
  const report: EvaluationReport = { evaluated: 0, transitions: [] };
  for (const rule of rules) {
    const prevBySeries = new Map((states.get(rule.id) ?? []).map((s) => [s.series, s]));
    const inScope = rule.server !== null ? [rule.server] : servers;
    // A state outside the rule's scope (its server changed or is gone, or a state from before
    // per-server evaluation) is stepped with no data, so a firing one resolves instead of hanging.
    const outOfScope = [...prevBySeries.values()].filter((s) => s.state !== 'inactive' && !inScope.includes(s.series)).map((s) => s.series);
    let cps: Promise<ContactPoint[]> | null = null;
    const contactPoints = () =>
      (cps ??= Promise.all(rule.contactPointIds.map((id) => contactPointForDelivery(sql, id))).then((l) => l.filter((c) => c !== null)));
    for (const series of [...inScope, ...outOfScope]) {
      const value = inScope.includes(series) ? await measureRule(sql, rule, series, nowMs) : Number.NaN;
      if (value === null) continue; // a failed read is not "no data": keep the state as it is
      const row = await stepSeries(sql, rule, series, prevBySeries.get(series) ?? null, value, nowMs, contactPoints, o);
      if (row === false) continue;
      report.evaluated++;
      if (row) {
        report.transitions.push(row);
        alertLog.transition(rule.name, row.kind, row.value, series);
      }
    }
  }
  return report;
}
