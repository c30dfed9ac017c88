// The fleet-wide tools: fleet_status, server_verdict, stuck_sessions and boundary_stats. Each calls
// the same lib/queries function its API route calls and shortens the answer for a model's context.
import type { z } from 'zod';
import type { Db } from '@/lib/db/client';
import { deadlockMaxMs, deadlockThresholdMs } from '@/lib/config/settings';
import { listServerVerdicts } from '@/lib/queries/server-verdicts';
import { listSessions } from '@/lib/queries/session-list';
import { parseSessionQuery } from '@/lib/queries/session-filter';
import { computeStats } from '@/lib/queries/stats';
import { parseStatsQuery } from '@/lib/queries/stats-query';
import { parseTimeRange } from '@/lib/queries/time-range';
import { serverKnown } from '@/lib/store/servers/server-known';
import { stuckDeadlocks } from '@/lib/store/session-stats';
import { endUnreportedUpTo } from '@/lib/boundary/deadlock-as-of';
import { ApiError } from '@/lib/http/api-error';
import { alarmSample, alarmText, rawLevel } from '@/lib/ui/alarm';
import type { TServerVerdict } from '@/lib/contract/api/servers';
import {
  FLEET_STATUS_MAX_SERVERS,
  type ZBoundaryStatsInput,
  type ZBoundaryStatsOutput,
  type ZFleetStatusInput,
  type ZFleetStatusOutput,
  type ZServerVerdictInput,
  type ZServerVerdictOutput,
  type ZStuckSessionsInput,
  type ZStuckSessionsOutput,
} from '@/lib/contract/mcp-tools';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

type In<S extends z.ZodType> = z.output<S>;
type Out<S extends z.ZodType> = z.output<S>;

/** Worst first. */
const VERDICT_RANK: Record<TServerVerdict, number> = {
  naive: 0,
  idle_resumes: 1,
  lossy_resumes: 2,
  unknown: 3,
  resumes_correctly: 4,
  refuses: 5,
};

/** A filter naming a server nobody configured or heard from is a mistake, not an empty answer. */
async function assertKnownServer(db: Db, server: string): Promise<void> {
  if (!(await serverKnown(db.sql, server))) throw unknownServer(server);
}

const unknownServer = (server: string) =>
  new ApiError(
    404,
    'server_not_found',
    `no server ${JSON.stringify(server)}: none is configured by that name and none has reported (fleet_status lists them)`,
  );

export async function fleetStatus(db: Db, args: In<typeof ZFleetStatusInput>): Promise<Out<typeof ZFleetStatusOutput>> {
  const now = doorwatchNow();
  const range = parseTimeRange(args.from, args.to, now);
  const [verdicts, stats] = await Promise.all([
    listServerVerdicts(db, range),
    computeStats(db, parseStatsQuery({ from: args.from, to: args.to, server: [], version: [], split: 'server' }, now)),
  ]);
  const sample = alarmSample(stats);
  const byName = new Map(sample.servers.map((s) => [s.server, s]));
  const servers = verdicts.servers
    .map((v) => {
      const a = byName.get(v.name);
      return {
        name: v.name,
        verdict: v.verdict,
        verdictText: v.verdictText,
        lastSeenAt: v.lastSeenAt,
        stuck: a?.stuck ?? 0,
        deadlocksInRange: a?.deadlocksInRange ?? 0,
        naiveInRange: a?.naiveInRange ?? false,
      };
    })
    .sort(
      (a, b) =>
        b.stuck - a.stuck ||
        VERDICT_RANK[a.verdict] - VERDICT_RANK[b.verdict] ||
        b.deadlocksInRange - a.deadlocksInRange ||
        a.name.localeCompare(b.name),
    );
  const words = alarmText(sample, sample.at);
  return {
    now: stats.now,
    range: verdicts.range,
    alarm: { level: rawLevel(sample), headline: words.headline, details: words.details },
    servers: servers.slice(0, FLEET_STATUS_MAX_SERVERS),
    serversTotal: servers.length,
    truncated: servers.length > FLEET_STATUS_MAX_SERVERS,
  };
}

export async function serverVerdict(db: Db, args: In<typeof ZServerVerdictInput>): Promise<Out<typeof ZServerVerdictOutput>> {
  const verdicts = await listServerVerdicts(db, parseTimeRange(args.from, args.to, doorwatchNow()));
  const v = verdicts.servers.find((s) => s.name === args.server);
  if (!v) throw unknownServer(args.server);
  return {
    server: v.name,
    range: verdicts.range,
    verdict: v.verdict,
    verdictText: v.verdictText,
    evidence: v.evidence,
    lastSeenAt: v.lastSeenAt,
    sessions: v.sessions,
    counts: v.counts,
    resumption: v.resumption,
    probe: v.probe,
    reporterLoss: v.reporterLoss && { dropped: v.reporterLoss.dropped, failed: v.reporterLoss.failed },
  };
}

/**
 * Deadlocked sessions, the ones stuck now first: a client still waiting is what an incident needs, and
 * sorted by last activity alone it sank below every newer deadlock that had already ended (its last
 * event is the naive resume it still waits on), off the first page. A `from` after the longest wait
 * began is widened to it, as the overview's "Show stuck sessions" does: a client stuck since before
 * the range is stuck in it too.
 */
export async function stuckSessions(db: Db, args: In<typeof ZStuckSessionsInput>): Promise<Out<typeof ZStuckSessionsOutput>> {
  for (const server of args.server) await assertKnownServer(db, server);
  const nowMs = doorwatchNow();
  const thresholdMs = deadlockThresholdMs();
  const maxMs = deadlockMaxMs();
  const q = parseSessionQuery(
    { ...args, flag: ['deadlock'], deadlock: [], state: [], version: [], sort: '-lastEventAt', synthetic: 'include' },
    nowMs,
    thresholdMs,
    maxMs,
  );
  const stuckRows = await stuckDeadlocks(db.sql, {
    server: null,
    toMs: q.filter.toMs ?? nowMs,
    cutoffMs: nowMs - thresholdMs,
    unreportedUpTo: endUnreportedUpTo(nowMs, maxMs),
  });
  const firsts = stuckRows.filter((r) => args.server.length === 0 || args.server.includes(String(r.server))).map((r) => Number(r.first));
  const stuckSince = firsts.length ? Math.min(...firsts) : null;
  if (stuckSince !== null && q.filter.fromMs !== null && stuckSince < q.filter.fromMs) q.filter.fromMs = stuckSince;
  // Stuck now: the ongoing deadlocks, by the list's own filter (one whose end went unreported past the
  // maximum is listed with the rest).
  const { sessions: stuck } = await listSessions(db, { ...q, filter: { ...q.filter, deadlocks: ['ongoing'] } });
  const page = await listSessions(db, q);
  const keyOf = (s: { server: string; token: string }) => `${s.server}\u0000${s.token}`;
  const listed = new Set(stuck.map(keyOf));
  const merged = [...stuck, ...page.sessions.filter((s) => !listed.has(keyOf(s)))].slice(0, q.limit);
  const sessions = merged.map((s) => ({
    server: s.server,
    token: s.token,
    state: s.state,
    flags: [...s.flags, ...s.resumption.flags],
    openedAt: s.openedAt,
    lastEventAt: s.lastEventAt,
    boundaryAt: s.boundaryAt,
    deadlock: s.deadlock,
  }));
  return {
    now: page.now,
    sessions,
    total: page.total,
    totalCapped: page.totalCapped,
    ongoing: sessions.filter((s) => s.deadlock?.ongoing).length,
  };
}

export async function boundaryStats(db: Db, args: In<typeof ZBoundaryStatsInput>): Promise<Out<typeof ZBoundaryStatsOutput>> {
  for (const server of args.server) await assertKnownServer(db, server);
  const s = await computeStats(db, parseStatsQuery({ ...args, version: [] }, doorwatchNow()));
  return {
    range: s.range,
    server: s.server,
    events: s.events,
    sessions: s.sessions,
    drops: s.drops,
    boundary: s.boundary,
    refused: s.refused,
    naiveResumes: s.naiveResumes,
    dualNegotiations: s.dualNegotiations,
    burnedTokenReuses: s.burnedTokenReuses,
    deadlocks: s.deadlocks,
    refusalLatencyMs: s.refusalLatencyMs,
    renegotiations: { count: s.renegotiations.count, rate: s.renegotiations.rate },
    resumption: s.resumption,
    deadLetters: s.deadLetters,
    rejectedRequests: s.rejectedRequests,
  };
}
