// "Open or join" (pure): folds evidence into the incident of its server and kind. There is one
// incident per server and kind, like a Sentry issue per fingerprint: the first evidence opens it,
// later evidence joins it (first seen = the earliest, last seen = the latest), and evidence newer
// than the moment it was resolved reopens it as a regression. Evidence is applied in (at, ref)
// order, and both rules compare event times only, so any delivery order of the same evidence, in
// one batch or many, gives the same incident (tests/unit/incident-open-or-join.test.ts).
import type { TIncidentKind, TIncidentStatus } from '@/lib/contract/api/incidents';

export interface Evidence {
  server: string;
  kind: TIncidentKind;
  /** When it was observed (ms): a session's flag time, a transition's, a probe run's start. */
  at: number;
  /** What it is (a session token, a transition id, a probe run id): orders ties. */
  ref: string;
  /** The server version that served it, when its reporter named one: the activity thread names it. */
  version?: string | null;
}

export interface IncidentState {
  id: string;
  server: string;
  kind: TIncidentKind;
  status: TIncidentStatus;
  firstSeenAt: number;
  lastSeenAt: number;
  regressions: number;
  regressedAt: number | null;
  acknowledgedAt: number | null;
  acknowledgedBy: string | null;
  /** The last resolution (kept after a regression reopens it: what the regression is measured from). */
  resolvedAt: number | null;
  resolvedBy: string | null;
}

/** What happened to the incident while folding: what the activity thread records. */
export type FoldActivity =
  | { kind: 'opened'; at: number; ref: string; version: string | null }
  | { kind: 'regressed'; at: number; ref: string; version: string | null; resolvedAt: number };

export const byTimeThenRef = (a: Evidence, b: Evidence) => a.at - b.at || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0);

/**
 * The incident after `evidence` (all of one server and kind), from `current` (null: none yet, opened
 * with `newId`). Returns null only when there is neither an incident nor evidence.
 */
export function openOrJoin(
  current: IncidentState | null,
  evidence: readonly Evidence[],
  newId: () => string,
): { next: IncidentState | null; activity: FoldActivity[] } {
  const sorted = [...evidence].sort(byTimeThenRef);
  let s = current;
  const activity: FoldActivity[] = [];
  for (const e of sorted) {
    if (s === null) {
      s = {
        id: newId(),
        server: e.server,
        kind: e.kind,
        status: 'open',
        firstSeenAt: e.at,
        lastSeenAt: e.at,
        regressions: 0,
        regressedAt: null,
        acknowledgedAt: null,
        acknowledgedBy: null,
        resolvedAt: null,
        resolvedBy: null,
      };
      activity.push({ kind: 'opened', at: e.at, ref: e.ref, version: e.version ?? null });
      continue;
    }
    if (e.server !== s.server || e.kind !== s.kind) throw new Error(`evidence of ${e.server}/${e.kind} folded into ${s.server}/${s.kind}`);
    s = { ...s, firstSeenAt: Math.min(s.firstSeenAt, e.at), lastSeenAt: Math.max(s.lastSeenAt, e.at) };
    if (s.status === 'resolved' && s.resolvedAt !== null && e.at > s.resolvedAt) {
      activity.push({ kind: 'regressed', at: e.at, ref: e.ref, version: e.version ?? null, resolvedAt: s.resolvedAt });
      s = { ...s, status: 'open', regressions: s.regressions + 1, regressedAt: e.at, acknowledgedAt: null, acknowledgedBy: null };
    } else if (s.status !== 'resolved' && s.regressedAt !== null && s.resolvedAt !== null && e.at > s.resolvedAt && e.at < s.regressedAt) {
      s = { ...s, regressedAt: e.at }; // an earlier recurrence delivered later: the regression began then
    }
  }
  return { next: s, activity };
}

/** Evidence grouped by incident (server and kind), in first-appearance order. */
export function groupByIncident(evidence: readonly Evidence[]): Evidence[][] {
  const groups = new Map<string, Evidence[]>();
  for (const e of evidence) {
    const key = `${e.server}\u0000${e.kind}`;
    const g = groups.get(key);
    if (g) g.push(e);
    else groups.set(key, [e]);
  }
  return [...groups.values()];
}

/**
 * Resolve on its own: nothing new for `quietMs` and no alert of its kind firing on its server.
 * Returns the resolution time, or null to leave it.
 */
export function quietResolution(
  s: Pick<IncidentState, 'status' | 'lastSeenAt'>,
  nowMs: number,
  quietMs: number,
  alertFiring: boolean,
): number | null {
  if (s.status === 'resolved' || alertFiring) return null;
  return nowMs - s.lastSeenAt >= quietMs ? nowMs : null;
}
