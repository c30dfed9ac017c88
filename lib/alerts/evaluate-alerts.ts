// One evaluation pass over every rule (run by the leader, lib/alerts/alert-schedule.ts): measure,
// step the rule's state (evaluate-rule.ts, pure), and record a change with its history row and one
// outbox row per contact point in one transaction. Only firing and resolved are notified (pending
// and cleared are the `for` duration doing its job: kept in the history, not paged).
import { randomUUID } from 'node:crypto';
import type { Sql } from '@/lib/db/sql';
import { listAlertRules, type AlertRuleRow } from '@/lib/store/alert-rules';
import { readAlertStates, writeAlertState } from '@/lib/store/alert-states';
import { insertAlertTransition, type AlertTransitionRow } from '@/lib/store/alert-transitions';
import { insertAlertDelivery } from '@/lib/store/alert-deliveries';
import { contactPointForDelivery } from '@/lib/store/alert-contact-points';
import { alertLog } from './alert-log';
import { evaluateRule } from './evaluate-rule';
import { measure } from './measures';
import { notificationBody } from './notification-body';

const NOTIFIED = new Set(['firing', 'resolved']);

export interface EvaluationReport {
  evaluated: number;
  transitions: AlertTransitionRow[];
}

async function measureRule(sql: Sql, rule: AlertRuleRow, nowMs: number): Promise<number | null> {
  if (!rule.enabled) return Number.NaN;
  try {
    return await measure(sql, rule.measure, { fromMs: nowMs - rule.windowMs, toMs: nowMs, server: rule.server });
  } catch (err) {
    alertLog.measureFailed(rule.name, err);
    return null;
  }
}

export async function evaluateAlerts(sql: Sql, nowMs: number, origin: string): Promise<EvaluationReport> {
  const rules = await listAlertRules(sql);
  const states = await readAlertStates(sql);
  const report: EvaluationReport = { evaluated: 0, transitions: [] };
  for (const rule of rules) {
    const value = await measureRule(sql, rule, nowMs);
    if (value === null) continue; // a failed read is not "no data": keep the state as it is
    const prev = states.get(rule.id) ?? null;
    const { next, transition } = evaluateRule(rule, prev, value, nowMs);
    const row: AlertTransitionRow | null = transition && {
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
    };
    const contactPoints =
      row && NOTIFIED.has(row.kind)
        ? (await Promise.all(rule.contactPointIds.map((id) => contactPointForDelivery(sql, id)))).filter((c) => c !== null)
        : [];
    const written = await sql.transaction(async (tx) => {
      if (!(await writeAlertState(tx, { ruleId: rule.id, ...next, value, evaluatedAt: nowMs }, prev?.version ?? null))) return false;
      if (!row) return true;
      await insertAlertTransition(tx, row);
      for (const cp of contactPoints) {
        await insertAlertDelivery(tx, {
          id: `msg_${randomUUID()}`,
          transitionId: row.id,
          contactPointId: cp.id,
          body: notificationBody(cp.format, row, origin),
          createdAt: nowMs,
        });
      }
      return true;
    });
    if (!written) continue; // another evaluator recorded this rule's step first
    report.evaluated++;
    if (row) {
      report.transitions.push(row);
      alertLog.transition(rule.name, row.kind, row.value);
    }
  }
  return report;
}
