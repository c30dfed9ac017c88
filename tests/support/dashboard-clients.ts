// Dashboards left open: clients polling the query API the way the UI does (stats, session list,
// server verdicts), each answer logged with its latency, until stopped.
import { summarizeLatencies } from '@/lib/metrics/percentiles';

export const DASHBOARD_PATHS = ['/api/v1/stats', '/api/v1/sessions?limit=50', '/api/v1/servers'] as const;

export interface PollAnswer {
  path: string;
  status: number;
  at: number;
  ms: number;
  /** No answer: connection refused (server down) or timed out. */
  error?: string;
}

export interface Dashboards {
  answers: PollAnswer[];
  stop(): Promise<PollAnswer[]>;
}

export interface DashboardOptions {
  url: () => string;
  /** Bearer token per client (a client keeps its token). */
  tokens: readonly string[];
  /** Pause between one client's requests. */
  intervalMs?: number;
  timeoutMs?: number;
}

export function openDashboards(o: DashboardOptions): Dashboards {
  const answers: PollAnswer[] = [];
  let stopped = false;
  const client = async (token: string, offset: number) => {
    for (let i = offset; !stopped; i++) {
      const path = DASHBOARD_PATHS[i % DASHBOARD_PATHS.length];
      const started = performance.now();
      try {
        const res = await fetch(`${o.url()}${path}`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
        });
        await res.arrayBuffer();
        answers.push({ path, status: res.status, at: Date.now(), ms: performance.now() - started });
      } catch (err) {
        answers.push({
          path,
          status: 0,
          at: Date.now(),
          ms: performance.now() - started,
          error: err instanceof Error ? err.name : String(err),
        });
      }
      await new Promise((r) => setTimeout(r, o.intervalMs ?? 100));
    }
  };
  const running = Promise.all(o.tokens.map((t, i) => client(t, i)));
  return {
    answers,
    async stop() {
      stopped = true;
      await running;
      return answers;
    },
  };
}

/** p50/p95/p99/max of answered requests, in ms (1 decimal). */
export function latencyFigures(ms: readonly number[]) {
  const s = summarizeLatencies(ms);
  const r = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
  return { count: ms.length, p50: r(s.p50), p95: r(s.p95), p99: r(s.p99), max: r(s.max) };
}

/** A load balancer's health check every 100 ms; a check without an answer counts as its whole timeout (status 0). */
export function watchHealth(url: () => string, timeoutMs: number) {
  const checks: { status: number; at: number; ms: number }[] = [];
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const t = performance.now();
      const status = await fetch(`${url()}/api/health`, { signal: AbortSignal.timeout(timeoutMs) })
        .then(async (r) => (await r.arrayBuffer(), r.status))
        .catch(() => 0);
      checks.push({ status, at: Date.now(), ms: performance.now() - t });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    checks,
    async stop() {
      stopped = true;
      await running;
      return checks;
    },
  };
}
