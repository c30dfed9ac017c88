// What the demo sets up in its own Doorwatch through the admin API, as an admin would:
// - a door-probe target at each simulated server (they listen on loopback: the demo allows it), so
//   probes run in the first minutes and the Servers page shows their results;
// - the windows of the "Naive resume" and "Dual negotiation" default rules cut from 5 minutes to 2,
//   so each resolves between the naive server's trouble episodes (a 5-minute window could not
//   resolve within the demo's first five minutes). Not 1: a rule counts whole-minute rollups whose
//   minute starts inside its window, so a count leaves a 60 s window up to a minute early, and the
//   rule resolved and fired again within one episode (measured); 2 minutes keep every count for at
//   least one. Only rules still exactly as installed are
//   changed: a rule the operator edited keeps the operator's values. The product's defaults are
//   untouched (prisma migrations).
import type { SimServer } from './server';

/** Probe interval of the demo's targets: the product default (5 min). */
export const DEMO_PROBE_INTERVAL_S = 300;

/** The default rules whose window the demo shortens, and to what. */
export const DEMO_RULE_WINDOWS: Record<string, { installed: number; demo: number }> = {
  'default-naive-resume': { installed: 300, demo: 120 },
  'default-dual-negotiation': { installed: 300, demo: 120 },
};

interface RuleView {
  id: string;
  windowSeconds: number;
  createdAt: string;
  updatedAt: string;
}

async function call(url: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** Points each server's probe target at its current port (the fleet's ports change with every start). */
export async function registerDemoProbes(url: string, token: string, servers: readonly SimServer[]): Promise<void> {
  for (const s of servers) {
    await call(url, token, 'PUT', `/api/v1/admin/servers/${encodeURIComponent(s.name)}/probe`, {
      url: `${s.url}/mcp`,
      intervalSeconds: DEMO_PROBE_INTERVAL_S,
      enabled: true,
    });
  }
}

/** Shortens the windows of the default rules still as installed; answers the ids it changed. */
export async function tuneDemoRules(url: string, token: string): Promise<string[]> {
  const { rules } = (await call(url, token, 'GET', '/api/v1/alerts/rules')) as { rules: RuleView[] };
  const changed: string[] = [];
  for (const rule of rules) {
    const tune = DEMO_RULE_WINDOWS[rule.id];
    if (!tune || rule.windowSeconds !== tune.installed || rule.updatedAt !== rule.createdAt) continue;
    await call(url, token, 'PATCH', `/api/v1/alerts/rules/${encodeURIComponent(rule.id)}`, { windowSeconds: tune.demo });
    changed.push(rule.id);
  }
  return changed;
}
