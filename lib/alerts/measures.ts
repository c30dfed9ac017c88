// The registry of alert measures: each one a number over [fromMs, toMs) for one server or all
// (the instant ones, INSTANT_MEASURES, at toMs alone),
// read through the query layer's and the store's readers (the same figures the stats API and
// the Servers page show), never SQL of its own. NaN means "no data" (lib/alerts/evaluate-rule.ts).
import type { Sql } from '@/lib/db/sql';
import type { TAlertMeasure } from '@/lib/contract/api/alerts';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { deadlockMaxMs, deadlockThresholdMs } from '@/lib/config/settings';
import { endUnreportedUpTo } from '@/lib/boundary/deadlock-as-of';
import { computeStats } from '@/lib/queries/stats';
import { lastEventAtByServer } from '@/lib/store/sessions';
import { stuckDeadlocks } from '@/lib/store/session-stats';
import type { MeasureScope } from './measure-scope';
import { countRejections } from '@/lib/store/ingest-rejections';
import { latestProbeVerdicts } from '@/lib/store/probe-runs';

export type { MeasureScope };
export type MeasureFn = (sql: Sql, scope: MeasureScope) => Promise<number>;

/** The stats API's answer over the scope, as one bucket (the rule's window). */
function statsOver(sql: Sql, s: MeasureScope): Promise<TStatsResponse> {
  const range = { fromMs: s.fromMs, toMs: s.toMs, fromInput: String(s.fromMs), toInput: String(s.toMs) };
  return computeStats(
    { sql },
    {
      range,
      bucketMs: Math.max(1, s.toMs - s.fromMs),
      server: s.server,
      nowMs: s.toMs,
      thresholdMs: deadlockThresholdMs(),
      maxMs: deadlockMaxMs(),
    },
  );
}

const fromStats =
  (pick: (stats: TStatsResponse) => number | null): MeasureFn =>
  async (sql, scope) =>
    pick(await statsOver(sql, scope)) ?? Number.NaN;

/** Seconds since the server's last event (for all servers: the most silent one); NaN when none has sent any. */
const serverSilenceSeconds: MeasureFn = async (sql, scope) => {
  const last = await lastEventAtByServer(sql);
  const times = scope.server === null ? [...last.values()] : [last.get(scope.server) ?? null];
  const seen = times.filter((t): t is number => t !== null);
  return seen.length === 0 ? Number.NaN : (scope.toMs - Math.min(...seen)) / 1000;
};

/**
 * Deadlocks ongoing at the evaluation moment (unended, waiting at least the deadlock threshold),
 * however long ago they began: the same read as the doorwatch_deadlocks_ongoing gauge. Not the
 * stats API's windowed count (ongoing ones that *started* in the window), which let a client that
 * had waited longer than the window drop out, so the alert resolved while the deadlock went on.
 */
const deadlocksOngoingNow: MeasureFn = async (sql, scope) => {
  const rows = await stuckDeadlocks(sql, {
    server: scope.server,
    toMs: scope.toMs,
    cutoffMs: scope.toMs - deadlockThresholdMs(),
    unreportedUpTo: endUnreportedUpTo(scope.toMs, deadlockMaxMs()),
  });
  return rows.reduce((n, r) => n + Number(r.n), 0);
};

/**
 * Servers (in scope) whose latest door probe, run inside the window, failed: a failing or a
 * regressed server (pass → fail) counts at once, a fixed one leaves the count with its next pass.
 * NaN when no probe ran in the window (no data: never fires).
 */
const probesFailing: MeasureFn = async (sql, scope) => {
  const latest = [...(await latestProbeVerdicts(sql)).values()].filter(
    (p) => (scope.server === null || p.server === scope.server) && p.startedAt >= scope.fromMs && p.startedAt < scope.toMs,
  );
  return latest.length === 0 ? Number.NaN : latest.filter((p) => p.verdict === 'fail').length;
};

export const MEASURES: Record<TAlertMeasure, MeasureFn> = {
  deadlocks_ongoing: deadlocksOngoingNow,
  naive_resumes: fromStats((s) => s.naiveResumes),
  dual_negotiations: fromStats((s) => s.dualNegotiations),
  burned_token_reuses: fromStats((s) => s.burnedTokenReuses),
  refusal_latency_p95_ms: fromStats((s) => s.refusalLatencyMs.p95),
  renegotiation_rate: fromStats((s) => s.renegotiations.rate),
  rejected_requests: countRejections,
  server_silence_seconds: serverSilenceSeconds,
  probes_failing: probesFailing,
};

export function measure(sql: Sql, name: TAlertMeasure, scope: MeasureScope): Promise<number> {
  return MEASURES[name](sql, scope);
}
