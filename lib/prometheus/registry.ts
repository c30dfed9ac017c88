// The app's one prom-client Registry (per process, lib/config/process-state.ts, so Next's module copies share
// it): default process metrics, the database-derived domain families (domain-metrics.ts), and
// per-instance families that only make sense per process (request and query durations, ingest
// batch outcomes), which Prometheus sums across instances as usual.
import { processSingleton } from '@/lib/config/process-state';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { getDb, getReadDb } from '@/lib/db/client';
import { replicaLagSeconds } from '@/lib/db/replica-position';
import { observeQueries } from '@/lib/db/timed-sql';
import { deadlockMaxMs, deadlockThresholdMs, settings } from '@/lib/config/settings';
import { credentialThrottle } from '@/lib/auth/credential-throttle';
import { streamFigures } from '@/lib/live/change-fanout';
import { leadershipByJob } from '@/lib/instance/leadership';
import { registerDomainMetrics } from './domain-metrics';

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5, 10];

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'doorwatch_' });
  // Gauges named *_total break the naming rule `promtool check metrics` enforces; the same values
  // stay available per type as doorwatch_nodejs_active_{handles,requests,resources}.
  for (const name of ['active_handles_total', 'active_requests_total', 'active_resources_total'])
    registry.removeSingleMetric(`doorwatch_nodejs_${name}`);
  const domain = registerDomainMetrics(registry, { sql: () => getDb().sql, deadlockThresholdMs, deadlockMaxMs });
  const instance = {
    registry,
    /** The /metrics text: the database is read once (domain-metrics.ts), then every family is printed. */
    async scrape(): Promise<string> {
      await domain.refresh();
      return registry.metrics();
    },
    httpRequestDuration: new Histogram({
      name: 'doorwatch_http_request_duration_seconds',
      help: 'API request duration on this instance, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    ingestRequests: new Counter({
      name: 'doorwatch_ingest_requests_total',
      help: 'Ingest requests answered by this instance, by status and reason (accepted, partial, invalid_body or the refusal reason). Per instance (no server label: a refused name is unverified); the database-derived doorwatch_ingest_rejected_requests_total is per server and survives restarts.',
      labelNames: ['status', 'reason'],
      registers: [registry],
    }),
    ingestEvents: new Counter({
      name: 'doorwatch_ingest_events_total',
      help: 'Events in accepted ingest batches on this instance, by result: accepted, duplicate, rejected (dead-lettered).',
      labelNames: ['server', 'result'],
      registers: [registry],
    }),
    ingestBatchDuration: new Histogram({
      name: 'doorwatch_ingest_batch_duration_seconds',
      help: 'Time to judge and store one ingest request on this instance, refused ones included.',
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    dbQueryDuration: new Histogram({
      name: 'doorwatch_db_query_duration_seconds',
      help: 'Duration of the hot-path SQL statements and transactions on this instance.',
      labelNames: ['operation'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'doorwatch_auth_throttle_keys',
    help: 'Client addresses (scope="address") and failed credentials (scope="credential") the sign-in throttle of this instance remembers; each is capped at DOORWATCH_AUTH_THROTTLE_MAX_KEYS.',
    labelNames: ['scope'],
    registers: [registry],
    collect() {
      const throttle = credentialThrottle();
      this.set({ scope: 'address' }, throttle.byAddress.size);
      this.set({ scope: 'credential' }, throttle.byCredential.size);
    },
  });
  new Gauge({
    name: 'doorwatch_change_streams',
    help: 'Live change streams (GET /api/v1/changes) open on this instance.',
    registers: [registry],
    collect() {
      this.set(streamFigures().open);
    },
  });
  new Gauge({
    name: 'doorwatch_leader',
    help: "Whether this instance leads the scheduled job (alerts, probes, retention): 1 while it holds the job's lease as of its last tick, else 0. Summed across instances, each job should show 1.",
    labelNames: ['job'],
    registers: [registry],
    collect() {
      for (const [job, leading] of leadershipByJob()) this.set({ job }, leading ? 1 : 0);
    },
  });
  new Counter({
    name: 'doorwatch_change_streams_dropped_total',
    help: 'Change streams this instance dropped because their client stopped reading (DOORWATCH_CHANGE_STREAM_BUFFER_BYTES queued).',
    registers: [registry],
    collect() {
      // The count lives in lib/live (a process counter); mirror it.
      this.reset();
      this.inc(streamFigures().dropped);
    },
  });
  observeQueries((operation, seconds) => instance.dbQueryDuration.observe({ operation }, seconds));
  if (settings().DATABASE_READ_URL) {
    new Gauge({
      name: 'doorwatch_replica_lag_seconds',
      help: 'How far the read replica (DATABASE_READ_URL) this instance reads from is behind: 0 when it has replayed all the WAL it received, else the age of the last transaction it replayed. Absent when the replica cannot be asked.',
      registers: [registry],
      async collect() {
        this.reset();
        const lag = await replicaLagSeconds(getReadDb().sql).catch(() => null);
        if (lag !== null) this.set(lag);
      },
    });
  }
  return instance;
}

export type AppMetrics = ReturnType<typeof build>;

/** The process's metrics (created on first use). */
export function appMetrics(): AppMetrics {
  return processSingleton('doorwatchMetrics', build);
}
