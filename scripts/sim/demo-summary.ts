// The demo's terminal: Doorwatch logs at warn and above there, so instead of a line per request the
// demo prints one line every 30 s (events Doorwatch accepted from the fleet, sessions, deadlocks,
// rules firing) with the URL and where the login token is, so both stay on screen.
import type { Fleet } from './fleet';

export const DEMO_SUMMARY_INTERVAL_MS = 30_000;

export interface DemoSummaryOptions {
  url: string;
  token: string;
  /** Where the token is kept, as the reader should type it (relative to the working directory when inside it). */
  credentialsPath: string;
  fleet: Fleet;
  intervalMs?: number;
  print?: (line: string) => void;
}

/** "Naive resume (demo-us-1), Ongoing deadlock (demo-us-1)", "none", or "unknown" when the API did not answer. */
async function firingRules(url: string, token: string): Promise<string> {
  try {
    const res = await fetch(`${url}/api/v1/alerts/rules`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) return `unknown (HTTP ${res.status})`;
    const { rules } = (await res.json()) as { rules: { name: string; firingServers: string[] }[] };
    const firing = rules.filter((r) => r.firingServers.length > 0).map((r) => `${r.name} (${r.firingServers.join(', ')})`);
    return firing.length ? firing.join(', ') : 'none';
  } catch {
    return 'unknown (Doorwatch did not answer)';
  }
}

export async function demoSummaryLine(o: Omit<DemoSummaryOptions, 'intervalMs' | 'print'>): Promise<string> {
  const accepted = Object.values(o.fleet.reporterStats()).reduce((n, s) => n + s.accepted, 0);
  const f = o.fleet.figures();
  const time = new Date().toTimeString().slice(0, 8);
  return (
    `[demo ${time}] ${accepted.toLocaleString('en')} events ingested · ${f.sessions} sessions · ${f.deadlocks} deadlocks ended · ` +
    `alerts firing: ${await firingRules(o.url, o.token)} · open ${o.url} (token in ${o.credentialsPath})`
  );
}

/**
 * Prints the summary every `intervalMs` until the returned stop is called, and before it what the
 * fleet's reporters could not deliver since the last one (Doorwatch's own 4xx answers are info
 * lines, no longer shown): a refused signature or an unknown server still reaches the terminal.
 */
export function startDemoSummary(o: DemoSummaryOptions): () => void {
  const print = o.print ?? ((line: string) => console.log(line));
  let busy = false;
  let reported = 0;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    const problems = o.fleet.reporterErrors.slice(reported);
    reported += problems.length;
    if (problems.length) print(`[demo] the fleet's reporters hit ${problems.length} problem(s), e.g. ${problems.slice(0, 3).join('; ')}`);
    void demoSummaryLine(o)
      .then(print)
      .finally(() => (busy = false));
  }, o.intervalMs ?? DEMO_SUMMARY_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
