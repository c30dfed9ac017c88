// The domain families of /metrics, computed at scrape time from the database so they are the
// same on every instance and survive restarts: counters are all-time rollup sums (the rollups
// are never pruned) and the rejection table (retention folds old minutes into all-time rows,
// so those never go down either); gauges count Session rows now. One GROUP BY per source per
// scrape: the rollup sums are read once and shared by every family derived from them.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { SqlExecutor } from '@/lib/db/sql';
import { REJECTION_STATUS } from '@/lib/contract/api/rejections';
import { REFUSAL_HISTOGRAM_COLUMNS, REFUSAL_HISTOGRAM_EDGES } from '@/lib/metrics/refusal-histogram';
import { rollupTotalsByServer } from '@/lib/store/rollups';
import { rejectionTotals } from '@/lib/store/ingest-rejections';
import { ongoingDeadlocksByServer, sessionsInStateByServer } from '@/lib/store/sessions';
import { DatabaseHistogram, type HistogramSnapshot } from './database-histogram';
import type { RollupColumn } from '@/lib/metrics/rollup-contributions';

const ROLLUP_READ = [
  'events',
  'boundary',
  'refused',
  'naiveResumes',
  'dualNegotiations',
  'burnedReuses',
  'deadlocks',
  'renegotiations',
  'renegUnder50ms',
  'renegUnder200ms',
  'renegLatencyMsSum',
  'refusalLatencyMsSum',
  ...REFUSAL_HISTOGRAM_COLUMNS,
] as const satisfies readonly RollupColumn[];
type RollupTotals = Map<string, Record<(typeof ROLLUP_READ)[number], number>>;

export interface DomainSources {
  sql: () => SqlExecutor;
  deadlockThresholdMs: () => number;
  now?: () => number;
}

/** Registers the domain families on `registry`. */
export function registerDomainMetrics(registry: Registry, src: DomainSources): void {
  // One rollup read per scrape: every rollup family asks within the same scrape (a few ms apart).
  let cached: { at: number; totals: Promise<RollupTotals> } | null = null;
  const rollups = (): Promise<RollupTotals> => {
    const now = Date.now();
    if (!cached || now - cached.at > 1_000) cached = { at: now, totals: rollupTotalsByServer(src.sql(), ROLLUP_READ) };
    return cached.totals;
  };

  const rollupCounter = (name: string, help: string, column: (typeof ROLLUP_READ)[number]) =>
    new Counter({
      name,
      help,
      labelNames: ['server'],
      registers: [registry],
      async collect() {
        const totals = await rollups();
        this.reset();
        for (const [server, t] of totals) this.inc({ server }, t[column]);
      },
    });

  new Counter({
    name: 'doorwatch_boundary_entries_total',
    help: 'Sessions that reached the upgrade boundary (a resume after a durable upgrade-accepted), by how the resume was answered: refused (correct), naive_resume, pending (not answered yet).',
    labelNames: ['server', 'outcome'],
    registers: [registry],
    async collect() {
      const totals = await rollups();
      this.reset();
      for (const [server, t] of totals) {
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

  const sessionGauge = (name: string, help: string, read: (sql: SqlExecutor) => Promise<Map<string, number>>) =>
    new Gauge({
      name,
      help,
      labelNames: ['server'],
      registers: [registry],
      async collect() {
        const counts = await read(src.sql());
        this.reset();
        for (const [server, n] of counts) this.set({ server }, n);
      },
    });
  sessionGauge('doorwatch_deadlocks_ongoing', 'Unended naive resumes idle for at least the deadlock threshold now.', (sql) =>
    ongoingDeadlocksByServer(sql, (src.now ?? Date.now)() - src.deadlockThresholdMs()),
  );
  sessionGauge('doorwatch_upgrades_pending', 'Sessions with an upgrade-accepted whose WebSocket handshake has not completed.', (sql) =>
    sessionsInStateByServer(sql, 'upgrade_pending'),
  );

  new Counter({
    name: 'doorwatch_ingest_rejected_requests_total',
    help: `Refused ingest requests by status and reason (401 reasons are told apart here, never to the sender). Unregistered server names share server="*unknown*".`,
    labelNames: ['server', 'status', 'reason'],
    registers: [registry],
    async collect() {
      const rows = await rejectionTotals(src.sql());
      this.reset();
      for (const r of rows) this.inc({ server: r.server, status: String(REJECTION_STATUS[r.reason]), reason: r.reason }, r.count);
    },
  });

  const histogram = (h: DatabaseHistogram) => registry.registerMetric(h as unknown as Parameters<Registry['registerMetric']>[0]);
  histogram(
    new DatabaseHistogram(
      'doorwatch_refusal_latency_seconds',
      'Time from the resume at the boundary to its session-superseded answer (buckets are [lower, upper) in whole ms).',
      async () =>
        [...(await rollups())].map(([server, t]): HistogramSnapshot => {
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
      'Time from the refusal to the successor session opening (renegotiation).',
      async () =>
        [...(await rollups())].map(([server, t]): HistogramSnapshot => ({
          server,
          buckets: [
            [0.05, t.renegUnder50ms],
            [0.2, t.renegUnder200ms],
          ],
          count: t.renegotiations,
          sumSeconds: t.renegLatencyMsSum / 1000,
        })),
    ),
  );
}
