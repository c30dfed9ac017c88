// The metric names docs/prometheus/{doorwatch-rules.yml,grafana-dashboard.json} use, and the
// series names a /metrics text exposes, so a test can check that one is a subset of the other.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const RULES_FILE = join('docs', 'prometheus', 'doorwatch-rules.yml');
export const DASHBOARD_FILE = join('docs', 'prometheus', 'grafana-dashboard.json');

/** doorwatch_* names (not doorwatch:* recording rules) in a PromQL text. */
export const metricNamesIn = (text: string): string[] => [...text.matchAll(/(?<![:\w])doorwatch_[a-z0-9_]+/g)].map((m) => m[0]);

/** Every PromQL expression of the dashboard (panel targets and template queries). */
export function dashboardExpressions(): string[] {
  const doc = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
    templating: { list: { query?: unknown; definition?: string }[] };
  };
  return [
    ...doc.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
    ...doc.templating.list.flatMap((v) => (typeof v.definition === 'string' ? [v.definition] : [])),
  ];
}

export const rulesText = (): string => readFileSync(RULES_FILE, 'utf8');

/** Series names in a Prometheus text exposition (histograms appear as _bucket, _sum, _count). */
export function exposedSeriesNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (m) names.add(m[1]);
  }
  return names;
}
