// GET /api/v1/servers/{server}/versions (each version with its counts and the behaviour change) and
// …/versions/compare (two versions side by side: boundary outcomes, refusal latency, renegotiation rate).
import type { Db } from '@/lib/db/client';
import type { TServerVersionsResponse, TVersionCompareResponse, TVersionFigures, TVersionView } from '@/lib/contract/api/versions';
import { toIsoMs } from '@/lib/contract/timestamp';
import { summarizeCountedLatencies, type CountedValue } from '@/lib/metrics/percentiles';
import type { TVersionChange } from '@/lib/contract/api/versions';
import { allServerVersions, firstNaiveResumeByVersion, versionsSeen, type ServerVersionRow } from '@/lib/store/server-versions';
import { versionRows } from '@/lib/store/version-figures';
import { versionChange } from './version-change';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

function versionView(r: ServerVersionRow, firstNaive: number | undefined): TVersionView {
  return {
    version: r.version,
    firstSeenAt: toIsoMs(r.firstSeenAt),
    lastSeenAt: toIsoMs(r.lastSeenAt),
    sessions: r.sessions,
    naiveResumes: r.naiveResumes,
    dualNegotiations: r.dualNegotiations,
    burnedTokenReuses: r.burnedReuses,
    refusals: r.refusals,
    deadlocks: r.deadlocks,
    conflicts: r.conflicts,
    firstNaiveResumeAt: firstNaive === undefined ? null : toIsoMs(firstNaive),
  };
}

export async function serverVersions(db: Pick<Db, 'sql'>, server: string, nowMs = doorwatchNow()): Promise<TServerVersionsResponse> {
  const [rows, firstNaive] = await Promise.all([versionsSeen(db.sql, server), firstNaiveResumeByVersion(db.sql, server)]);
  return {
    server,
    versions: rows.map((r) => versionView(r, firstNaive.get(r.version))),
    change: versionChange(rows, firstNaive, nowMs),
  };
}

/**
 * Each server's behaviour change with a version (servers without one are absent). The first naive
 * resume is read only for the servers whose versions show one became naive.
 */
export async function versionChangesByServer(db: Pick<Db, 'sql'>, nowMs: number): Promise<Map<string, TVersionChange>> {
  const out = new Map<string, TVersionChange>();
  for (const [server, rows] of await allServerVersions(db.sql)) {
    let change = versionChange(rows, new Map(), nowMs);
    if (change?.kind === 'became_naive') change = versionChange(rows, await firstNaiveResumeByVersion(db.sql, server), nowMs);
    if (change) out.set(server, change);
  }
  return out;
}

function latency(counted: readonly CountedValue[]) {
  const { count, p50, p95 } = summarizeCountedLatencies(counted);
  return { count, p50, p95 };
}

async function figures(db: Pick<Db, 'sql'>, server: string, version: string): Promise<TVersionFigures> {
  const rows = await versionRows(db.sql, server, version);
  const outcomes = { refused: 0, naive_resume: 0, pending: 0, none: 0 };
  for (const o of rows.outcomes) {
    const key = o.outcome === 'refused' || o.outcome === 'naive_resume' || o.outcome === 'pending' ? o.outcome : 'none';
    outcomes[key] += o.n;
  }
  return {
    version,
    sessions: rows.outcomes.reduce((n, o) => n + o.n, 0),
    outcomes,
    refusalLatencyMs: latency(rows.refusal),
    renegotiation: {
      refused: outcomes.refused,
      renegotiated: rows.renegotiated,
      rate: outcomes.refused === 0 ? null : rows.renegotiated / outcomes.refused,
      latencyMs: latency(rows.renegotiation),
    },
  };
}

/** Two versions of one server side by side (a version the server never reported has zero sessions). */
export async function compareVersions(db: Pick<Db, 'sql'>, server: string, a: string, b: string): Promise<TVersionCompareResponse> {
  const [fa, fb] = await Promise.all([figures(db, server, a), figures(db, server, b)]);
  return { server, a: fa, b: fb };
}
