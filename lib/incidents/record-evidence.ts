// Folds one incident's new evidence (one server and kind) into its row, in the caller's
// transaction: read, fold (open-or-join.ts, pure), write with compare-and-set, and on a lost race
// read again and fold again. Sessions are linked once: a session already linked is not new
// evidence (the sweep's cursor overlaps, and an old session must not pass for a recurrence).
import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@/lib/db/sql';
import { insertIncident, readIncidentOf, updateIncident, type IncidentRow } from '@/lib/store/incidents';
import { linkIncidentSessions, linkedTokens } from '@/lib/store/incident-sessions';
import { insertActivity } from '@/lib/store/incident-activity';
import { openOrJoin, type Evidence, type FoldActivity } from './open-or-join';

const ATTEMPTS = 8;
const SYSTEM = 'doorwatch';

const fmt = (ms: number) => new Date(ms).toISOString();
/** `nowMs`: the entry's own time. When the evidence is of that moment (an alert opening it as it fires), "seen" would repeat it. */
function activityText(a: FoldActivity, source: string, nameOf: (ref: string) => string, nowMs: number): string {
  const served = a.version === null ? '' : ` served by ${a.version}`;
  const what = `${source} ${nameOf(a.ref)}`;
  if (a.kind === 'opened') return `opened by ${what}${served}${a.at === nowMs ? '' : ` (seen ${fmt(a.at)})`}`;
  return `regression: ${what}${served} seen ${fmt(a.at)}, after it was resolved at ${fmt(a.resolvedAt)}`;
}

/**
 * `group`: evidence of one server and kind (non-empty). `source` names it in the activity thread
 * ("session", "alert", "probe run"); for sessions, each evidence's ref is the session's token.
 * `nameOf` says a ref as a person reads it there (an alert's transition id as its rule's name);
 * by default the ref itself. Returns the incident as written (or as it was, when nothing was new).
 */
export async function recordEvidence(
  tx: SqlExecutor,
  group: readonly Evidence[],
  source: Source,
  nowMs: number,
  nameOf: (ref: string) => string = (ref) => ref,
): Promise<IncidentRow> {
  return (await fold(tx, group, source, nowMs, nameOf, true))!;
}

/**
 * Like recordEvidence, but evidence that may only join: it neither opens an incident nor reopens a
 * resolved one (a deadlocked session joins the incident its alert opened; what counts as an incident
 * of deadlocks is the operator's rule). Returns null when there was no unresolved incident to join.
 */
export function joinEvidence(tx: SqlExecutor, group: readonly Evidence[], source: Source, nowMs: number): Promise<IncidentRow | null> {
  return fold(tx, group, source, nowMs, (ref) => ref, false);
}

type Source = 'session' | 'alert' | 'probe run';

async function fold(
  tx: SqlExecutor,
  group: readonly Evidence[],
  source: Source,
  nowMs: number,
  nameOf: (ref: string) => string,
  mayOpen: boolean,
): Promise<IncidentRow | null> {
  const { server, kind } = group[0]!;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await readIncidentOf(tx, server, kind);
    if (!mayOpen && (current === null || current.status === 'resolved')) return null;
    let fresh = group;
    if (current && source === 'session') {
      const linked = await linkedTokens(
        tx,
        current.id,
        group.map((e) => e.ref),
      );
      fresh = group.filter((e) => !linked.has(e.ref));
    }
    if (current && fresh.length === 0) return current;
    const { next, activity } = openOrJoin(current, fresh, () => `inc_${randomUUID()}`);
    const sessions = source === 'session' ? fresh.map((e) => ({ token: e.ref, at: e.at })) : [];
    const row: IncidentRow = {
      ...next!,
      openedAt: current?.openedAt ?? nowMs,
      sessionCount: (current?.sessionCount ?? 0) + sessions.length,
      version: current?.version ?? 0,
    };
    const written = current ? await updateIncident(tx, row) : await insertIncident(tx, row);
    if (!written) continue; // another writer changed it first: fold again over what it wrote
    await linkIncidentSessions(tx, row.id, sessions);
    for (const a of activity)
      await insertActivity(tx, {
        incidentId: row.id,
        kind: a.kind,
        at: nowMs,
        actor: SYSTEM,
        text: activityText(a, source, nameOf, nowMs),
      });
    return { ...row, version: current ? row.version + 1 : 0 };
  }
  throw new Error(`the incident of ${server}/${kind} kept changing under ${ATTEMPTS} attempts to record evidence`);
}
