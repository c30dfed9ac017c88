// The domain families of /metrics, computed at scrape time from the database so they are the
// same on every instance and survive restarts: counters are all-time rollup sums (the rollups
// are never pruned) and the rejection table (retention folds old minutes into all-time rows,
// so those never go down either); gauges count Session rows now. `refresh()` reads everything
// once per scrape (domain-snapshot.ts); the families print that snapshot. When the database
// cannot be read, the domain families print nothing and `doorwatch_database_up` prints 0, while
// the process and HTTP families go on: the instance is alive, its database is not.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { SqlExecutor } from '@/lib/db/sql';
import { REJECTION_STATUS } from '@/lib/contract/api/rejections';
import { REFUSAL_HISTOGRAM_COLUMNS, REFUSAL_HISTOGRAM_EDGES } from '@/lib/metrics/refusal-histogram';
import { componentLogger } from '@/lib/log/logger';
import { databaseErrorLine } from '@/lib/db/database-errors';
import { DatabaseHistogram, type HistogramSnapshot } from './database-histogram';
import { readDomainSnapshot, type DomainSnapshot, type RollupTotals } from './domain-snapshot';

export interface DomainSources {
  sql: () => SqlExecutor;
  deadlockThresholdMs: () => number;
  /** DOORWATCH_DEADLOCK_MAX_MS; absent or 0: a deadlock counts until its end is reported. */
  deadlockMaxMs?: () => number;
  now?: () => number;
}

export interface DomainMetrics {
  /** Reads the database for the next scrape; false (and the domain families empty) when it cannot. */
  refresh(): Promise<boolean>;
}

/** Registers the domain families on `registry`. */
export function registerDomainMetrics(registry: Registry, src: DomainSources): DomainMetrics {
  let current: DomainSnapshot | null = null;
  let down = false;
  const log = componentLogger('metrics');

  new Gauge({
    name: 'doorwatch_database_up',
    help: 'Whether this instance could read the database for this scrape (1) or not (0: the domain families are absent from this scrape).',
    registers: [registry],
    collect() {
      this.set(current ? 1 : 0);
    },
  });

  const rollupCounter = (name: string, help: string, column: keyof RollupTotals) =>
    new Counter({
      name,
      help,
      labelNames: ['server'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [server, t] of current?.rollups ?? []) this.inc({ server }, t[column]);
      },
    });

  new Counter({
    name: 'doorwatch_boundary_entries_total',
    help: 'Sessions that reached the upgrade boundary (a resume after a durable upgrade-accepted), by how the resume was answered: refused (correct), naive_resume, pending (not answered yet).',
    labelNames: ['server', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [server, t] of current?.rollups ?? []) {
        this.inc({ server, outcome: 'refused' }, t.refused);
        this.inc({ server, outcome: 'naive_resume' }, t.naiveResumes);
        this.inc({ server, outcome: 'pending' }, Math.max(0, t.boundary - t.refused - t.naiveResumes));
      }
    },
  });
  rollupCounter(
    'doorwatch_naive_resumes_total',
    'Resumes at the boundary answered with an idle stream instead of session-superseded.',
    'naiveResumes',
  );
  rollupCounter(
    'doorwatch_dual_negotiations_total',
    'Second upgrade-accepted minted for one session (dual negotiation).',
    'dualNegotiations',
  );
  rollupCounter('doorwatch_burned_token_reuses_total', 'Resumes with a token already burned by session-superseded.', 'burnedReuses');
  rollupCounter('doorwatch_renegotiations_total', 'Successor sessions opened after a refusal (the client renegotiated).', 'renegotiations');
  rollupCounter('doorwatch_deadlocks_ended_total', 'Deadlocks (naive resumes left idle) that have ended.', 'deadlocks');
  rollupCounter('doorwatch_events_accepted_total', 'Events stored by ingest (duplicates not included).', 'events');

  const sessionGauge = (name: string, help: string, read: (s: DomainSnapshot) => Map<string, number>) =>
    new Gauge({
      name,
      help,
      labelNames: ['server'],
      registers: [registry],
      collect() {
        this.reset();
        if (current) for (const [server, n] of read(current)) this.set({ server }, n);
      },
    });
  sessionGauge(
    'doorwatch_deadlocks_ongoing',
    'Unended naive resumes idle for at least the deadlock threshold now (and less than DOORWATCH_DEADLOCK_MAX_MS when set).',
    (s) => s.deadlocksOngoing,
  );
  sessionGauge(
    'doorwatch_upgrades_pending',
    'Sessions with an upgrade-accepted whose WebSocket handshake has not completed (and an event less than DOORWATCH_DEADLOCK_MAX_MS ago when set).',
    (s) => s.upgradesPending,
  );

  new Counter({
    name: 'doorwatch_ingest_rejected_requests_total',
    help: `Refused ingest requests by status and reason (401 reasons are told apart here, never to the sender). Unregistered server names share server="*unknown*".`,
    labelNames: ['server', 'status', 'reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const r of current?.rejections ?? [])
        this.inc({ server: r.server, status: String(REJECTION_STATUS[r.reason]), reason: r.reason }, r.count);
    },
  });

  const histogram = (h: DatabaseHistogram) => registry.registerMetric(h as unknown as Parameters<Registry['registerMetric']>[0]);
  histogram(
    new DatabaseHistogram(
      'doorwatch_refusal_latency_seconds',
      'Time from the resume at the boundary to its session-superseded answer (buckets count latency ≤ le, in whole ms).',
      async () =>
        [...(current?.rollups ?? [])].map(([server, t]): HistogramSnapshot => {
          let cumulative = 0;
          const buckets = REFUSAL_HISTOGRAM_EDGES.map((edge, i): [number, number] => [
            edge / 1000,
            (cumulative += t[REFUSAL_HISTOGRAM_COLUMNS[i]]),
          ]);
          const count = cumulative + t[REFUSAL_HISTOGRAM_COLUMNS[REFUSAL_HISTOGRAM_COLUMNS.length - 1]];
          return { server, buckets, count, sumSeconds: t.refusalLatencyMsSum / 1000 };
        }),
    ),
  );
  histogram(
    new DatabaseHistogram(
      'doorwatch_renegotiation_latency_seconds',
      'Time from the refusal to the successor session opening (renegotiation; buckets count latency ≤ le, in whole ms).',
      async () =>
        [...(current?.rollups ?? [])].map(([server, t]): HistogramSnapshot => ({
          server,
          buckets: [
            [0.05, t.renegLe50ms],
            [0.2, t.renegLe200ms],
          ],
          count: t.renegotiations,
          sumSeconds: t.renegLatencyMsSum / 1000,
        })),
    ),
  );

  return {
    async refresh() {
      try {
        current = await readDomainSnapshot(src.sql(), (src.now ?? Date.now)(), src.deadlockThresholdMs(), src.deadlockMaxMs?.() ?? 0);
        if (down) log.info('database readable again for /metrics');
        down = false;
      } catch (err) {
        current = null;
        // One line per outage, not one per scrape.
        if (!down)
          log.error({ err: databaseErrorLine(err) }, 'database unavailable: /metrics serves process metrics and doorwatch_database_up 0');
        down = true;
      }
      return current !== null;
    },
  };
}
