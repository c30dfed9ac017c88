// The leader's incident pass (run with alert evaluation, lib/alerts/alert-schedule.ts):
// 1. sessions stored since the cursor that carry a naive resume, a dual negotiation or a
//    burned-token reuse become evidence (one incident per server and kind);
// 2. deadlocked sessions join their server's unresolved deadlock incident (opened by a
//    deadlocks_ongoing rule): the ongoing ones each pass, the ended ones as they are written;
// 3. incidents quiet for DOORWATCH_INCIDENT_QUIET_MS, with no alert of their kind firing on
//    their server, resolve on their own.
// Why here and not in ingest: the write path stays as it is (no read of incidents per batch, no
// contention on one incident row between ingest threads), and one writer folds a whole fleet's
// sessions in a few statements. The price is latency: an incident opens within one alert interval.
import { databaseNowMs } from '@/lib/db/database-clock';
import type { Sql, SqlExecutor } from '@/lib/db/sql';
import {
  flaggedSessionsSince,
  ongoingDeadlocksNotLinked,
  readCursor,
  writeCursor,
  type FlaggedSession,
  type SessionKey,
} from '@/lib/store/flagged-sessions';
import { listUnresolvedIncidents, resolveIncident } from '@/lib/store/incidents';
import { insertActivity } from '@/lib/store/incident-activity';
import { listAlertRules } from '@/lib/store/alert-rules';
import { readAlertStates } from '@/lib/store/alert-states';
import { groupByIncident, quietResolution, type Evidence } from './open-or-join';
import { KIND_OF_MEASURE } from './incident-kind';
import { joinEvidence, recordEvidence } from './record-evidence';
import { endUnreportedUpTo } from '@/lib/boundary/deadlock-as-of';

const CURSOR = 'sessions';
/** Flagged sessions a page reads, and the pages past the cursor a pass reads at most. */
export interface Paging {
  page: number;
  maxPages: number;
}
const PAGING: Paging = { page: 500, maxPages: 20 };
/** Re-read this far behind the cursor: a batch's updatedAt is taken before its transaction commits. */
const OVERLAP_MS = 60_000;
/** The first pass of a new install reads the last day, not the whole history. */
const FIRST_LOOKBACK_MS = 86_400_000;
export const QUIET_RESOLVER = 'doorwatch (quiet period)';

export interface SweepReport {
  sessions: number;
  incidentsTouched: number;
  autoResolved: number;
}

function sessionEvidence(s: FlaggedSession): Evidence[] {
  const out: Evidence[] = [];
  const push = (kind: Evidence['kind'], at: number | null) =>
    at !== null && out.push({ server: s.server, kind, at, ref: s.token, version: s.version });
  push('naive_resume', s.naiveResumeAt);
  push('dual_negotiation', s.dualNegotiationAt);
  push('burned_token_reuse', s.burnedTokenReuseAt);
  // An ended deadlock is one whatever its length (lib/boundary/deadlock-as-of.ts); an unended one
  // becomes one only with the reader's clock, which sweepOngoingDeadlocks reads.
  if (s.deadlockEndedAt !== null) push('deadlock', s.deadlockStartedAt);
  return out;
}

/** Deadlocks open no incident (recordEvidence's rule is the alert's): they join one, or nothing. */
const record = (group: readonly Evidence[], nowMs: number) => (tx: SqlExecutor) =>
  group[0]!.kind === 'deadlock' ? joinEvidence(tx, group, 'session', nowMs) : recordEvidence(tx, group, 'session', nowMs);

/**
 * Where a pass starts reading from. "updatedAt" and the cursor are both on the steady clock, which
 * never goes back within a process; a stored cursor ahead of this pass's now by more than the overlap
 * was written on a clock this one is behind (a restart after a backward step of the host clock, or a
 * leader on another host), and sessions written since on this clock lie behind it: read the last
 * day again, as a first pass does (evidence is recorded once per session, so a re-read adds nothing).
 */
export function sweepOrigin(stored: number | null, nowMs: number): number {
  if (stored === null || stored > nowMs + OVERLAP_MS) return nowMs - FIRST_LOOKBACK_MS;
  return stored;
}

async function sweepSessions(sql: Sql, nowMs: number, report: SweepReport, paging: Paging, capAtDatabaseClock: boolean): Promise<void> {
  // nowMs is the steady clock, as ingest's "updatedAt" stamps (lib/ingest/ingest-events.ts). On
  // PostgreSQL other instances stamp on other hosts' clocks, but never behind the database's
  // (lib/ingest/store-batch.ts): a pass that starts no later than that clock reads what they write,
  // however far this host's clock is ahead of theirs.
  const databaseNow = capAtDatabaseClock ? await databaseNowMs(sql) : null;
  const passStart = databaseNow === null ? nowMs : Math.min(nowMs, databaseNow);
  const stored = await readCursor(sql, CURSOR);
  const cursor = sweepOrigin(stored, passStart);
  let after: SessionKey | null = null;
  let high = cursor;
  // Only pages that reach past the cursor count against the budget: the overlap re-read of sessions
  // seen last pass is not progress, and when it held more than the budget's worth of flagged
  // sessions (a naive storm) every pass re-read the same pages and the cursor never moved.
  for (let counted = 0; counted < paging.maxPages;) {
    const batch = await flaggedSessionsSince(sql, cursor - OVERLAP_MS, after, paging.page);
    // Read to the end: every flagged session written before this pass began has been seen (one that
    // commits later with an earlier updatedAt is within the overlap), so the cursor moves to the pass's
    // start even when the last flagged session is older. Held at the last flagged one, a healthy fleet's
    // passes would each re-read every session written since it.
    if (batch.length < paging.page) high = Math.max(high, passStart);
    for (const group of groupByIncident(batch.flatMap(sessionEvidence))) {
      if (await sql.transaction(record(group, nowMs))) report.incidentsTouched++;
    }
    report.sessions += batch.length;
    const last = batch.at(-1);
    if (last) {
      after = last;
      high = Math.max(high, last.updatedAt);
    }
    if (batch.length < paging.page) break;
    if (last && last.updatedAt > cursor) counted++;
  }
  // Never past this pass's start: a session stamped on a clock ahead of this one (another host's, or
  // this host's before a step back) is read again next pass rather than set as the cursor, where it
  // would put the sessions this clock writes behind it.
  const next = Math.min(high, passStart);
  if (next !== stored) await writeCursor(sql, CURSOR, next);
}

/**
 * Links the deadlocks ongoing now (unended, started at least `thresholdMs` ago and less than the
 * maximum when one is set) to their server's unresolved deadlock incident, `paging.page` at a time,
 * at most `paging.maxPages` per incident.
 */
async function sweepOngoingDeadlocks(
  sql: Sql,
  nowMs: number,
  limits: { thresholdMs: number; maxMs: number },
  report: SweepReport,
  paging: Paging,
): Promise<void> {
  const open = (await listUnresolvedIncidents(sql)).filter((i) => i.kind === 'deadlock');
  for (const incident of open) {
    for (let pages = 0; pages < paging.maxPages; pages++) {
      const sessions = await ongoingDeadlocksNotLinked(sql, {
        server: incident.server,
        incidentId: incident.id,
        startedBy: nowMs - limits.thresholdMs,
        unreportedUpTo: endUnreportedUpTo(nowMs, limits.maxMs),
        limit: paging.page,
      });
      if (sessions.length === 0) break;
      const group = sessions.map((s) => ({
        server: incident.server,
        kind: 'deadlock' as const,
        at: s.deadlockStartedAt,
        ref: s.token,
        version: s.version,
      }));
      // Resolved meanwhile (by hand, or quiet on another path): nothing to join, and the read would not shrink.
      if (!(await sql.transaction((tx) => joinEvidence(tx, group, 'session', nowMs)))) break;
      report.sessions += sessions.length;
      report.incidentsTouched++;
      if (sessions.length < paging.page) break;
    }
  }
}

async function resolveQuiet(sql: Sql, nowMs: number, quietMs: number, report: SweepReport): Promise<void> {
  const open = await listUnresolvedIncidents(sql);
  if (open.length === 0) return;
  const [rules, states] = await Promise.all([listAlertRules(sql), readAlertStates(sql)]);
  const firing = new Set<string>();
  for (const rule of rules) {
    for (const s of states.get(rule.id) ?? []) if (s.state === 'firing') firing.add(`${s.series}\u0000${KIND_OF_MEASURE[rule.measure]}`);
  }
  for (const incident of open) {
    const at = quietResolution(incident, nowMs, quietMs, firing.has(`${incident.server}\u0000${incident.kind}`));
    if (at === null) continue;
    await sql.transaction(async (tx) => {
      if (!(await resolveIncident(tx, incident.id, QUIET_RESOLVER, at, incident.version))) return; // changed meanwhile: next pass
      report.autoResolved++;
      await insertActivity(tx, {
        incidentId: incident.id,
        kind: 'auto_resolved',
        at,
        actor: QUIET_RESOLVER,
        text: `no new evidence for ${Math.round(quietMs / 1000)} s`,
      });
    });
  }
}

/**
 * `capAtDatabaseClock` (default true): on PostgreSQL a pass starts no later than the database's clock.
 * False when `nowMs` is a caller's own clock and ingest stamped with it too (tests of one simulated clock).
 */
export async function sweepIncidents(
  sql: Sql,
  nowMs: number,
  o: { quietMs: number; deadlockThresholdMs: number; deadlockMaxMs?: number; paging?: Paging; capAtDatabaseClock?: boolean },
): Promise<SweepReport> {
  const report: SweepReport = { sessions: 0, incidentsTouched: 0, autoResolved: 0 };
  await sweepSessions(sql, nowMs, report, o.paging ?? PAGING, o.capAtDatabaseClock ?? true);
  const limits = { thresholdMs: o.deadlockThresholdMs, maxMs: o.deadlockMaxMs ?? 0 };
  await sweepOngoingDeadlocks(sql, nowMs, limits, report, o.paging ?? PAGING);
  await resolveQuiet(sql, nowMs, o.quietMs, report);
  return report;
}
