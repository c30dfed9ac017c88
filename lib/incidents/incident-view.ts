// An incident row as the API shows it, with the server versions that served its sessions.
import type { TIncident } from '@/lib/contract/api/incidents';
import { toIsoMs } from '@/lib/contract/timestamp';
import type { IncidentRow } from '@/lib/store/incidents';
import { incidentTitle } from './incident-kind';

const iso = (ms: number | null) => (ms === null ? null : toIsoMs(ms));

export function incidentView(r: IncidentRow, versions: readonly string[] = []): TIncident {
  return {
    id: r.id,
    server: r.server,
    kind: r.kind,
    title: incidentTitle(r.kind, r.server),
    status: r.status,
    firstSeen: toIsoMs(r.firstSeenAt),
    lastSeen: toIsoMs(r.lastSeenAt),
    openedAt: toIsoMs(r.openedAt),
    sessionCount: r.sessionCount,
    regression: r.regressions > 0,
    regressions: r.regressions,
    regressedAt: iso(r.regressedAt),
    acknowledgedAt: iso(r.acknowledgedAt),
    acknowledgedBy: r.acknowledgedBy,
    // The row keeps its last resolution after a regression reopened it; the API shows the current one.
    resolvedAt: r.status === 'resolved' ? iso(r.resolvedAt) : null,
    resolvedBy: r.status === 'resolved' ? r.resolvedBy : null,
    versions: [...versions],
  };
}
