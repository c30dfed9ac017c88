// The incident list (filters, totals per status) and one incident with a page of its sessions
// and its timeline. Each answer is read in one snapshot (Sql.snapshot): its statements run side by
// side, and a sweep committing between them once showed an incident the totals did not count
// ("1 row, total 0"), or a session page longer than the incident's session count.
import type { SqlExecutor } from '@/lib/db/sql';
import type { Db } from '@/lib/db/client';
import type { TIncidentDetail, TIncidentListResponse, TIncidentStatus } from '@/lib/contract/api/incidents';
import { toIsoMs } from '@/lib/contract/timestamp';
import { ApiError } from '@/lib/http/api-error';
import { countIncidentsByStatus, listIncidents, readIncident } from '@/lib/store/incidents';
import { incidentSessionPage, incidentVersions } from '@/lib/store/incident-sessions';
import { incidentView } from './incident-view';
import { assembleTimeline, readSources } from './incident-timeline';
import { sessionPath } from './session-path';

type ListQuery = { status?: TIncidentStatus; server?: string; limit: number; offset: number };
type DetailQuery = { sessionsLimit: number; sessionsOffset: number };

export function incidentList(db: Db, q: ListQuery): Promise<TIncidentListResponse> {
  return db.sql.snapshot((sql) => readList(sql, q));
}

export function incidentDetail(db: Db, id: string, q: DetailQuery, nowMs: number): Promise<TIncidentDetail> {
  return db.sql.snapshot((sql) => readDetail(sql, id, q, nowMs));
}

async function readList(sql: SqlExecutor, q: ListQuery): Promise<TIncidentListResponse> {
  const [rows, counts] = await Promise.all([listIncidents(sql, q), countIncidentsByStatus(sql, q.server)]);
  const totals = { open: counts.get('open') ?? 0, acknowledged: counts.get('acknowledged') ?? 0, resolved: counts.get('resolved') ?? 0 };
  const all = totals.open + totals.acknowledged + totals.resolved;
  const versions = await incidentVersions(
    sql,
    rows.map((r) => r.id),
  );
  return {
    incidents: rows.map((r) => incidentView(r, versions.get(r.id))),
    totals: { ...totals, all },
    total: q.status ? totals[q.status] : all,
  };
}

async function readDetail(sql: SqlExecutor, id: string, q: DetailQuery, nowMs: number): Promise<TIncidentDetail> {
  const row = await readIncident(sql, id);
  if (!row) throw new ApiError(404, 'incident_not_found', `no incident "${id}"`);
  const [page, sources, versions] = await Promise.all([
    incidentSessionPage(sql, id, q.sessionsLimit, q.sessionsOffset),
    readSources(sql, row, nowMs),
    incidentVersions(sql, [id]),
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
