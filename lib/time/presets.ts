// Named ranges offered by the time picker; the first four have number-key shortcuts.
import { DEFAULT_RANGE } from './range';

export interface RangePreset {
  label: string;
  short: string;
  from: string;
  to: string;
  /** Keyboard shortcut, if any. */
  key?: string;
}

export const RANGE_PRESETS: readonly RangePreset[] = [
  { label: 'Last 15 minutes', short: '15m', from: DEFAULT_RANGE.from, to: DEFAULT_RANGE.to, key: '1' },
  { label: 'Last 1 hour', short: '1h', from: 'now-1h', to: 'now', key: '2' },
  { label: 'Last 24 hours', short: '24h', from: 'now-24h', to: 'now', key: '3' },
  { label: 'Last 7 days', short: '7d', from: 'now-7d', to: 'now', key: '4' },
  // Grafana's calendar presets: whole UTC days and weeks (Monday first), rounded by the grammar.
  { label: 'Today', short: 'today', from: 'now/d', to: 'now/d' },
  { label: 'Yesterday', short: 'yesterday', from: 'now-1d/d', to: 'now-1d/d' },
  { label: 'This week', short: 'week', from: 'now/w', to: 'now/w' },
];

export function presetFor(from: string, to: string): RangePreset | undefined {
  return RANGE_PRESETS.find((p) => p.from === from && p.to === to);
}
