// The stats endpoint's split by version (split=version, version=): the rollups carry no version, so
// each counter is read from Session rows at the same anchor the rollups use for it
// (lib/metrics/rollup-contributions.ts), grouped by version and series bucket in the database. The
// split therefore adds up to the rollup totals, the version-less sessions included (version null).
// Cost: one GROUP BY per anchor over the sessions active in range (the lastEventAt index bounds them;
// renegotiations use the successorOpenedAt index, also for one server: session-server-term.ts), so it
// grows with the range's sessions where the rollup totals do not: asked for only when a reader splits
// or filters by version.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL } from './tables';
import { sessionServerTerm } from './session-server-term';

/** The counters a version split holds (the rollup counters that belong to one session). */
export const VERSION_COUNTERS = [
  'sessions',
  'boundary',
  'refused',
  'naiveResumes',
  'dualNegotiations',
  'burnedTokenReuses',
  'deadlocks',
  'ongoingDeadlocks',
  'unreportedDeadlocks',
  'renegotiations',
] as const;
export type VersionCounter = (typeof VERSION_COUNTERS)[number];

/**
 * Each counter's anchor and condition, as the rollups count it. Every anchor but the successor's
 * opening lies within its session's events (≤ lastEventAt), so `lastEventAt >= from` is a safe bound.
 */
const ANCHORS: Record<
  Exclude<VersionCounter, 'ongoingDeadlocks' | 'unreportedDeadlocks'>,
  { at: string; when?: string; withinEvents: boolean }
> = {
  sessions: { at: 'firstEventAt', withinEvents: true },
  boundary: { at: 'boundaryAt', withinEvents: true },
  refused: { at: 'answeredAt', when: `"boundaryOutcome" = 'refused'`, withinEvents: true },
  naiveResumes: { at: 'answeredAt', when: `"boundaryOutcome" = 'naive_resume'`, withinEvents: true },
  dualNegotiations: { at: 'dualNegotiationAt', withinEvents: true },
  burnedTokenReuses: { at: 'burnedTokenReuseAt', withinEvents: true },
  // Ended deadlocks; ongoing ones (below) depend on the reader's clock, as in the totals.
  deadlocks: { at: 'deadlockStartedAt', when: `"deadlockEndedAt" IS NOT NULL`, withinEvents: true },
  renegotiations: { at: 'successorOpenedAt', withinEvents: false },
};

export interface VersionStatsRange {
  fromMs: number;
  toMs: number;
  bucketMs: number;
  server: string | null;
  /** Only these versions (empty: every version, and the sessions without one). */
  versions: readonly string[];
  /** Unended deadlocks count as ongoing once they started at or before this (now − threshold). */
  cutoffMs: number;
  /** …and are "end unreported" if they started at or before this (lib/boundary/deadlock-as-of.ts). */
  unreportedUpTo: number;
}

/** (version, counter, bucket, n); drivers may hand BIGINT/COUNT back as bigint or string. */
export interface VersionCountRow {
  version: string | null;
  k: VersionCounter;
  b: number | bigint | string;
  n: number | bigint | string;
}

function filters(r: VersionStatsRange): { text: string; params: unknown[] } {
  let text = '';
  const params: unknown[] = [];
  if (r.server !== null) {
    text += ' AND "server" = ?';
    params.push(r.server);
  }
  if (r.versions.length) {
    text += ` AND "version" IN (${r.versions.map(() => '?').join(', ')})`;
    params.push(...r.versions);
  }
  return { text, params };
}

/** Every counter of the split, per version and series bucket, in one statement. */
export function versionCounts(sql: SqlExecutor, r: VersionStatsRange): Promise<VersionCountRow[]> {
  const parts: string[] = [];
  const params: unknown[] = [];
  const part = (k: VersionCounter, at: string, extra: string, extraParams: unknown[], f: { text: string; params: unknown[] }) => {
    parts.push(
      `SELECT "version", '${k}' AS "k", CAST("${at}" / CAST(? AS BIGINT) AS BIGINT) AS "b", COUNT(*) AS "n"
         FROM ${TABLE_SQL.session}
        WHERE "synthetic" = 0 AND "${at}" >= ? AND "${at}" < ?${extra}${f.text}
        GROUP BY 1, 3`,
    );
    params.push(r.bucketMs, r.fromMs, r.toMs, ...extraParams, ...f.params);
  };
  const withServer = filters(r);
  // An anchor with no lastEventAt bound (the successor's opening) is found by its own index; with the
  // server's term plain, SQLite walked (server, version, lastEventAt): every session the server had.
  const server = sessionServerTerm(sql.provider, r.server);
  const byAnchor = filters({ ...r, server: null });
  const anchorLed = { text: `${server.text}${byAnchor.text}`, params: [...server.params, ...byAnchor.params] };
  for (const [k, a] of Object.entries(ANCHORS) as [VersionCounter, (typeof ANCHORS)['sessions']][]) {
    const extra = `${a.when ? ` AND ${a.when}` : ''}${a.withinEvents ? ' AND "lastEventAt" >= ?' : ''}`;
    part(k, a.at, extra, a.withinEvents ? [r.fromMs] : [], a.withinEvents ? withServer : anchorLed);
  }
  part('ongoingDeadlocks', 'deadlockStartedAt', ' AND "deadlockEndedAt" IS NULL AND "deadlockStartedAt" <= ?', [r.cutoffMs], withServer);
  // Of those, the "end unreported" ones: deadlocks still, no longer ongoing. Without a maximum there are none.
  if (r.unreportedUpTo > Number.MIN_SAFE_INTEGER) {
    const upTo = Math.min(r.cutoffMs, r.unreportedUpTo);
    part('unreportedDeadlocks', 'deadlockStartedAt', ' AND "deadlockEndedAt" IS NULL AND "deadlockStartedAt" <= ?', [upTo], withServer);
  }
  return sql.query<VersionCountRow>(parts.join('\nUNION ALL\n'), params);
}

/** (version, refusal latency, how many): the exact refusal latencies per version, by refusedAt as the totals' percentiles. */
export function versionRefusalLatencies(
  sql: SqlExecutor,
  r: VersionStatsRange,
): Promise<{ version: string | null; value: number | bigint | string; count: number | bigint | string }[]> {
  // The refusedAt index leads, not the server's (session-server-term.ts). Most of versionCounts'
  // anchors (firstEventAt, boundaryAt, answeredAt, …) have no index, so there the server's stays.
  const f = filters({ ...r, server: null });
  const server = sessionServerTerm(sql.provider, r.server);
  return sql.query(
    `SELECT "version", "refusalLatencyMs" AS "value", COUNT(*) AS "count"
       FROM ${TABLE_SQL.session}
      WHERE "synthetic" = 0 AND "refusedAt" >= ? AND "refusedAt" < ? AND "boundaryOutcome" = 'refused'
        AND "refusalLatencyMs" IS NOT NULL${server.text}${f.text}
      GROUP BY 1, 2`,
    [r.fromMs, r.toMs, ...server.params, ...f.params],
  );
}
