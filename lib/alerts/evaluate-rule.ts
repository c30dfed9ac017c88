// One evaluation step of one alert rule, as a pure function: the rule's condition, its previous
// state, the value just measured and the time → its next state and the transition, if any.
// inactive → pending when the condition starts to hold; → firing once it has held for `forMs`
// (at once when forMs is 0); firing → inactive is "resolved", pending → inactive "cleared".
// A disabled rule is inactive. A value that is not a finite number is "no data": the condition
// does not hold (a p95 over no refusals never fires a "> 200 ms" rule).
import type { TAlertComparison, TAlertStateName, TAlertTransitionKind } from '@/lib/contract/api/alerts';

export interface RuleCondition {
  comparison: TAlertComparison;
  threshold: number;
  forMs: number;
  enabled: boolean;
}

export interface RuleState {
  state: TAlertStateName;
  /** When the rule entered `state`. */
  since: number;
  /** Since when the condition has held without a break (null while inactive). */
  activeSince: number | null;
}

export interface Evaluation {
  next: RuleState;
  transition: TAlertTransitionKind | null;
}

export function conditionHolds(value: number, comparison: TAlertComparison, threshold: number): boolean {
  if (!Number.isFinite(value)) return false;
  switch (comparison) {
    case 'gt':
      return value > threshold;
    case 'gte':
      return value >= threshold;
    case 'lt':
      return value < threshold;
    case 'lte':
      return value <= threshold;
  }
}

export function evaluateRule(rule: RuleCondition, previous: RuleState | null, value: number, nowMs: number): Evaluation {
  const prev: RuleState = previous ?? { state: 'inactive', since: nowMs, activeSince: null };
  const holds = rule.enabled && conditionHolds(value, rule.comparison, rule.threshold);
  if (!holds) {
    if (prev.state === 'inactive') return { next: prev, transition: null };
    return { next: { state: 'inactive', since: nowMs, activeSince: null }, transition: prev.state === 'firing' ? 'resolved' : 'cleared' };
  }
  const activeSince = prev.state === 'inactive' || prev.activeSince === null ? nowMs : prev.activeSince;
  // Once firing, a rule stays firing while the condition holds (even if its `for` was raised meanwhile).
  const state: TAlertStateName = prev.state === 'firing' || nowMs - activeSince >= rule.forMs ? 'firing' : 'pending';
  if (state === prev.state) return { next: { ...prev, activeSince }, transition: null };
  return { next: { state, since: nowMs, activeSince }, transition: state };
}
