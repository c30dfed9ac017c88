// The incident list (filters, totals per status) and one incident with a page of its sessions
// and its timeline.
import type { Db } from '@/lib/db/client';
import type { TIncidentDetail, TIncidentListResponse, TIncidentStatus } from '@/lib/contract/api/incidents';
import { toIsoMs } from '@/lib/contract/timestamp';
import { ApiError } from '@/lib/http/api-error';
import { countIncidentsByStatus, listIncidents, readIncident } from '@/lib/store/incidents';
import { incidentSessionPage, incidentVersions } from '@/lib/store/incident-sessions';
import { incidentView } from './incident-view';
import { assembleTimeline, readSources } from './incident-timeline';
import { sessionPath } from './session-path';

export async function incidentList(
  db: Db,
  q: { status?: TIncidentStatus; server?: string; limit: number; offset: number },
): Promise<TIncidentListResponse> {
  const [rows, counts] = await Promise.all([listIncidents(db.sql, q), countIncidentsByStatus(db.sql, q.server)]);
  const totals = { open: counts.get('open') ?? 0, acknowledged: counts.get('acknowledged') ?? 0, resolved: counts.get('resolved') ?? 0 };
  const all = totals.open + totals.acknowledged + totals.resolved;
  const versions = await incidentVersions(
    db.sql,
    rows.map((r) => r.id),
  );
  return {
    incidents: rows.map((r) => incidentView(r, versions.get(r.id))),
    totals: { ...totals, all },
    total: q.status ? totals[q.status] : all,
  };
}

export async function incidentDetail(
  db: Db,
  id: string,
  q: { sessionsLimit: number; sessionsOffset: number },
  nowMs: number,
): Promise<TIncidentDetail> {
  const row = await readIncident(db.sql, id);
  if (!row) throw new ApiError(404, 'incident_not_found', `no incident "${id}"`);
  const [page, sources, versions] = await Promise.all([
    incidentSessionPage(db.sql, id, q.sessionsLimit, q.sessionsOffset),
    readSources(db.sql, row, nowMs),
    incidentVersions(db.sql, [id]),
  ]);
  const { timeline, truncated } = assembleTimeline(sources);
  return {
    incident: incidentView(row, versions.get(id)),
    sessions: {
      items: page.map((s) => ({ server: row.server, token: s.token, at: toIsoMs(s.at), path: sessionPath(row.server, s.token) })),
      total: row.sessionCount,
      offset: q.sessionsOffset,
      limit: q.sessionsLimit,
    },
    timeline,
    timelineTruncated: truncated,
  };
}
