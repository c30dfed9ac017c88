// What one session adds to its server's per-version counters ("ServerVersion"). Pure, like the
// rollup contributions: ingest adds a session's new row and subtracts its old one, so the counters
// are a function of the stored rows alone, whatever order the events arrived in.

export const VERSION_COUNTERS = [
  'sessions',
  'naiveResumes',
  'dualNegotiations',
  'burnedReuses',
  'refusals',
  'deadlocks',
  'conflicts',
] as const;
export type VersionCounter = (typeof VERSION_COUNTERS)[number];

/** The facts of a stored session the counters read. */
export interface VersionedSession {
  server: string;
  version: string | null;
  firstEventAt: number;
  lastEventAt: number;
  boundaryOutcome: string | null;
  fDualNegotiation: number;
  fBurnedTokenReuse: number;
  deadlockEndedAt: number | null;
  synthetic: number;
}

export interface VersionCell {
  server: string;
  version: string;
  /** Event-time bounds this batch saw for the version (only ever widen the stored ones). */
  firstSeenAt: number;
  lastSeenAt: number;
  values: Record<VersionCounter, number>;
}

/** Cells keyed by `${server}|${version}`. */
export type VersionDelta = Map<string, VersionCell>;

function cellOf(delta: VersionDelta, server: string, version: string, from: number, to: number): VersionCell {
  const key = `${server}|${version}`;
  let cell = delta.get(key);
  if (!cell) {
    const values = Object.fromEntries(VERSION_COUNTERS.map((c) => [c, 0])) as Record<VersionCounter, number>;
    delta.set(key, (cell = { server, version, firstSeenAt: from, lastSeenAt: to, values }));
  }
  cell.firstSeenAt = Math.min(cell.firstSeenAt, from);
  cell.lastSeenAt = Math.max(cell.lastSeenAt, to);
  return cell;
}

/**
 * Adds (sign 1) or removes (-1) one session's counts under its version. Synthetic sessions (door
 * probes) and sessions no batch named a version for count nowhere; deadlocks count once ended
 * (an ongoing one depends on the reader's clock, as in the rollups).
 */
export function addVersionContribution(delta: VersionDelta, s: VersionedSession, sign: 1 | -1): void {
  if (s.version === null || Number(s.synthetic) === 1) return;
  const cell = cellOf(delta, s.server, s.version, Number(s.firstEventAt), Number(s.lastEventAt));
  const v = cell.values;
  v.sessions += sign;
  if (s.boundaryOutcome === 'naive_resume') v.naiveResumes += sign;
  if (s.boundaryOutcome === 'refused') v.refusals += sign;
  if (Number(s.fDualNegotiation) === 1) v.dualNegotiations += sign;
  if (Number(s.fBurnedTokenReuse) === 1) v.burnedReuses += sign;
  if (s.deadlockEndedAt !== null) v.deadlocks += sign;
}

/** A batch named `version` for events between `from` and `to`: the version is seen then. */
export function addVersionSeen(delta: VersionDelta, server: string, version: string, from: number, to: number): void {
  cellOf(delta, server, version, from, to);
}

/**
 * A batch named `version` for a session another version already served: counted on the named one.
 * Its seen bounds are the batch's own events (addVersionSeen), not the claimed session's span.
 */
export function addVersionConflict(delta: VersionDelta, server: string, version: string, at: number): void {
  const cell = delta.get(`${server}|${version}`) ?? cellOf(delta, server, version, at, at);
  cell.values.conflicts += 1;
}
