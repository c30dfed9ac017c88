// What the domain families of /metrics print, read from the database once per scrape. Every
// registered server has every series from the first scrape on, at 0 when nothing happened:
// a counter born at 1 reads as no change to increase(), so a server's first naive resume (or
// first refusal of a kind) would never fire a rule. zeroFilled is the pure part (unit-tested).
import type { SqlExecutor } from '@/lib/db/sql';
import { REJECTION_REASONS, type TRejectionReason } from '@/lib/contract/api/rejections';
import { REFUSAL_HISTOGRAM_COLUMNS } from '@/lib/metrics/refusal-histogram';
import type { RollupColumn } from '@/lib/metrics/rollup-contributions';
import { rollupTotalsByServer } from '@/lib/store/rollups';
import { UNKNOWN_SERVER_BUCKET, rejectionTotals } from '@/lib/store/ingest-rejections';
import { upgradesPendingByServer } from '@/lib/store/sessions';
import { stuckDeadlocks } from '@/lib/store/session-stats';
import { endUnreportedUpTo } from '@/lib/boundary/deadlock-as-of';
import { registeredServerNames } from '@/lib/store/servers/server-registry';

export const ROLLUP_READ = [
  'events',
  'boundary',
  'refused',
  'naiveResumes',
  'dualNegotiations',
  'burnedReuses',
  'deadlocks',
  'renegotiations',
  'renegLe50ms',
  'renegLe200ms',
  'renegLatencyMsSum',
  'refusalLatencyMsSum',
  ...REFUSAL_HISTOGRAM_COLUMNS,
] as const satisfies readonly RollupColumn[];
export type RollupTotals = Record<(typeof ROLLUP_READ)[number], number>;

export interface RejectionTotal {
  server: string;
  reason: TRejectionReason;
  count: number;
}

export interface DomainReads {
  registered: readonly string[];
  rollups: ReadonlyMap<string, RollupTotals>;
  rejections: readonly RejectionTotal[];
  deadlocksOngoing: ReadonlyMap<string, number>;
  upgradesPending: ReadonlyMap<string, number>;
}

export interface DomainSnapshot {
  /** Registered servers and any server with stored counts (a removed server keeps its series), sorted. */
  servers: string[];
  rollups: Map<string, RollupTotals>;
  rejections: RejectionTotal[];
  deadlocksOngoing: Map<string, number>;
  upgradesPending: Map<string, number>;
}

const ZERO_ROLLUP = Object.fromEntries(ROLLUP_READ.map((c) => [c, 0])) as RollupTotals;

/**
 * Every server gets every series: rollup counters, gauges, and a rejection series per reason
 * (unknown_server only under the shared UNKNOWN_SERVER_BUCKET, which gets every reason).
 */
export function zeroFilled(r: DomainReads): DomainSnapshot {
  const servers = [...new Set([...r.registered, ...r.rollups.keys(), ...r.deadlocksOngoing.keys(), ...r.upgradesPending.keys()])].sort();
  const rejections = new Map<string, RejectionTotal>();
  const put = (t: RejectionTotal) => rejections.set(`${t.server}\u0000${t.reason}`, t);
  for (const server of [...servers, UNKNOWN_SERVER_BUCKET])
    for (const reason of REJECTION_REASONS)
      if (reason !== 'unknown_server' || server === UNKNOWN_SERVER_BUCKET) put({ server, reason, count: 0 });
  for (const t of r.rejections) put(t);
  return {
    servers,
    rollups: new Map(servers.map((s) => [s, r.rollups.get(s) ?? ZERO_ROLLUP])),
    rejections: [...rejections.values()],
    deadlocksOngoing: new Map(servers.map((s) => [s, r.deadlocksOngoing.get(s) ?? 0])),
    upgradesPending: new Map(servers.map((s) => [s, r.upgradesPending.get(s) ?? 0])),
  };
}

/** One read of each source (five statements), zero-filled. */
export async function readDomainSnapshot(sql: SqlExecutor, nowMs: number, thresholdMs: number, maxMs: number): Promise<DomainSnapshot> {
  const [registered, rollups, rejections, deadlocksOngoing, upgradesPending] = await Promise.all([
    registeredServerNames(sql),
    rollupTotalsByServer(sql, ROLLUP_READ),
    rejectionTotals(sql),
    stuckDeadlocks(sql, { server: null, toMs: nowMs, cutoffMs: nowMs - thresholdMs, unreportedUpTo: endUnreportedUpTo(nowMs, maxMs) }).then(
      (rows) => new Map(rows.map((r) => [r.server, Number(r.n)])),
    ),
    upgradesPendingByServer(sql, endUnreportedUpTo(nowMs, maxMs)),
  ]);
  return zeroFilled({ registered, rollups, rejections, deadlocksOngoing, upgradesPending });
}
