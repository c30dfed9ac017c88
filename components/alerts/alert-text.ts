// How an alert rule's condition, state and values read, shared by the rules, firing and history panels.
import { COMPARISON_SYMBOLS, INSTANT_MEASURES, MEASURE_LABELS, type TAlertRule } from '@/lib/contract/api/alerts';

export const STATE_TONE = { firing: 'bad', pending: 'warn', inactive: 'good' } as const;
export const KIND_TONE = { firing: 'bad', pending: 'warn', resolved: 'good', cleared: '' } as const;

// An instant measure's window changes nothing, so it is not shown as if it did.
export const condition = (r: Pick<TAlertRule, 'measure' | 'comparison' | 'threshold' | 'windowSeconds'>) =>
  `${MEASURE_LABELS[r.measure]} ${COMPARISON_SYMBOLS[r.comparison]} ${r.threshold}${INSTANT_MEASURES.has(r.measure) ? '' : ` over ${fmtSeconds(r.windowSeconds)}`}`;

export function fmtSeconds(s: number): string {
  if (s % 3600 === 0 && s > 0) return `${s / 3600} h`;
  if (s % 60 === 0 && s > 0) return `${s / 60} min`;
  return `${s} s`;
}

export const fmtValue = (v: number | null) => (v === null ? 'no data' : String(Math.round(v * 1000) / 1000));
