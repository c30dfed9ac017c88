// One timeline of everything an incident holds, assembled from independent sources: its sessions,
// the alert transitions linked to it or on its server in its window, the door-probe runs in its
// window, its activity (actions and notes), and the annotations and first-seen versions of its
// server from LEAD_IN_MS before it began (the deploy that caused it comes before its first evidence).
// Each source is read on its own (at most SOURCE_LIMIT entries) and the assembly (pure) merges them
// in time order, so another source is one more reader in `readSources`.
// The server's other alerts, and its door probes unless the incident is a failing probe, are
// `context`: what else went on, which a reader may hide, and which never takes the incident's own
// entries' place under the limit (they are separate sources).
import type { SqlExecutor } from '@/lib/db/sql';
import type { TTimelineEntry } from '@/lib/contract/api/incidents';
import { toIsoMs } from '@/lib/contract/timestamp';
import type { IncidentRow } from '@/lib/store/incidents';
import type { ActivityRow } from '@/lib/store/incident-activity';
import { incidentSessionPage } from '@/lib/store/incident-sessions';
import { listActivity } from '@/lib/store/incident-activity';
import { incidentTransitions, type AlertTransitionRow } from '@/lib/store/alert-transitions';
import { probeRunsBetween } from '@/lib/store/probe-runs';
import { annotationsInWindow } from '@/lib/store/annotations';
import { versionsFirstSeenIn } from '@/lib/store/server-versions';
import { MEASURE_OF_KIND } from './incident-kind';
import { sessionPath } from './session-path';

export const SOURCE_LIMIT = 200;
/** How far before its first evidence the deploys (annotations, first-seen versions) are looked for. */
export const LEAD_IN_MS = 3_600_000;

/** A source's entries (at in ms) and whether it held more than it returned. */
export interface TimelineSource {
  entries: (Omit<TTimelineEntry, 'at'> & { at: number })[];
  truncated: boolean;
}

/** Merges the sources oldest first (ties: source, then ref), so the order is the same on every read. */
export function assembleTimeline(sources: readonly TimelineSource[]): { timeline: TTimelineEntry[]; truncated: boolean } {
  const all = sources.flatMap((s) => s.entries);
  all.sort((a, b) => a.at - b.at || a.source.localeCompare(b.source) || (a.ref ?? '').localeCompare(b.ref ?? ''));
  return { timeline: all.map((e) => ({ ...e, at: toIsoMs(e.at) })), truncated: sources.some((s) => s.truncated) };
}

const source = (entries: TimelineSource['entries']): TimelineSource => ({ entries, truncated: entries.length >= SOURCE_LIMIT });

/** The incident's window: first seen to resolved (or now). */
export const incidentWindow = (r: IncidentRow, nowMs: number) => ({
  fromMs: r.firstSeenAt,
  toMs: r.status === 'resolved' && r.resolvedAt !== null ? r.resolvedAt : Math.max(nowMs, r.lastSeenAt),
});

const activityEntry = (a: ActivityRow): TimelineSource['entries'][number] => ({
  at: a.at,
  source: 'activity',
  kind: a.kind,
  summary: a.text ?? a.kind,
  actor: a.actor,
  ref: a.id,
  path: null,
  context: false,
});

const alertEntry = (t: AlertTransitionRow, context: boolean): TimelineSource['entries'][number] => ({
  at: t.at,
  source: 'alert',
  kind: t.kind,
  summary: `${t.kind.toUpperCase()}: ${t.ruleName}${t.value === null ? '' : ` (value ${t.value})`}`,
  actor: null,
  ref: t.id,
  path: `/alerts?rule=${encodeURIComponent(t.ruleId)}`,
  context,
});

/** A note just added, as the timeline shows it. */
export const noteEntry = (a: ActivityRow): TTimelineEntry => ({ ...activityEntry(a), at: toIsoMs(a.at) });

export async function readSources(sql: SqlExecutor, r: IncidentRow, nowMs: number): Promise<TimelineSource[]> {
  const { fromMs, toMs } = incidentWindow(r, nowMs);
  const alerts = { incidentId: r.id, server: r.server, measure: MEASURE_OF_KIND[r.kind], fromMs, toMs, limit: SOURCE_LIMIT };
  const [sessions, ownAlerts, otherAlerts, probes, activity, annotations, versions] = await Promise.all([
    incidentSessionPage(sql, r.id, SOURCE_LIMIT, 0),
    incidentTransitions(sql, { ...alerts, part: 'own' }),
    incidentTransitions(sql, { ...alerts, part: 'context' }),
    probeRunsBetween(sql, r.server, fromMs, toMs, SOURCE_LIMIT),
    listActivity(sql, r.id, SOURCE_LIMIT),
    annotationsInWindow(sql, { fromMs: fromMs - LEAD_IN_MS, toMs, server: r.server, limit: SOURCE_LIMIT }),
    versionsFirstSeenIn(sql, { fromMs: fromMs - LEAD_IN_MS, toMs, server: r.server }),
  ]);
  return [
    source(
      sessions.map((s) => ({
        at: s.at,
        source: 'session',
        kind: r.kind,
        summary: `session ${s.token}`,
        actor: null,
        ref: s.token,
        path: sessionPath(r.server, s.token),
        context: false,
      })),
    ),
    source(ownAlerts.map((t) => alertEntry(t, false))),
    source(otherAlerts.map((t) => alertEntry(t, true))),
    source(
      probes.map((p) => ({
        at: p.startedAt,
        source: 'probe',
        kind: p.verdict,
        summary: `door probe (${p.trigger}): ${p.verdict}`,
        actor: null,
        ref: p.id,
        path: `/servers/${encodeURIComponent(r.server)}`,
        context: r.kind !== 'probe_failure',
      })),
    ),
    source(activity.map(activityEntry)),
    source(
      annotations.map((a) => ({
        at: a.time,
        source: 'annotation',
        kind: 'annotation',
        summary: a.tags.length ? `${a.text} [${a.tags.join(', ')}]` : a.text,
        actor: a.createdBy,
        ref: a.id,
        path: null,
        context: false,
      })),
    ),
    source(
      versions.map((v) => ({
        at: v.firstSeenAt,
        source: 'version',
        kind: 'first_seen',
        summary: `${v.version} first reported`,
        actor: null,
        ref: v.version,
        path: `/servers/${encodeURIComponent(r.server)}`,
        context: false,
      })),
    ),
  ];
}
