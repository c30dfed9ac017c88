// GET /api/v1/servers: registered servers and servers seen in data, with a conformance verdict.
import type { Db } from '@/lib/db/client';
import type { TServerListResponse, TServerVerdict, TServerView } from '@/lib/contract/api/servers';
import { toIsoMs } from '@/lib/contract/timestamp';
import { reporterLossByServer } from '@/lib/store/reporter-status';
import { UNKNOWN_SERVER_BUCKET, rejectionsByServer, type ServerRejections } from '@/lib/store/ingest-rejections';
import type { TRejectionSummary } from '@/lib/contract/api/rejections';
import type { TimeRange } from '@/lib/time/range';
import { rollupTotalsByServer } from '@/lib/store/rollups';
import { registeredServers } from '@/lib/store/servers/server-registry';
import { lastEventAtByServer } from '@/lib/store/sessions';

export interface VerdictCounts {
  boundary: number;
  refused: number;
  naiveResumes: number;
  dualNegotiations: number;
  burnedTokenReuses: number;
}

/**
 * naive: any naive resume, dual negotiation or burned-token reuse (one is enough);
 * refuses: at least one boundary resume answered, and every answered one was refused;
 * unknown: no boundary resume answered yet (a pending one proves nothing either way).
 */
export function verdictOf(c: VerdictCounts): TServerVerdict {
  if (c.naiveResumes > 0 || c.dualNegotiations > 0 || c.burnedTokenReuses > 0) return 'naive';
  if (c.boundary > 0 && c.refused > 0) return 'refuses';
  return 'unknown';
}

const TOTALS = ['events', 'sessions', 'boundary', 'refused', 'naiveResumes', 'dualNegotiations', 'burnedReuses'] as const;

const rejectionSummary = (r: ServerRejections | undefined): TRejectionSummary => ({
  count: r?.count ?? 0,
  byReason: r?.byReason ?? {},
  last: r?.last ? { reason: r.last.reason, at: toIsoMs(r.last.at), skewMs: r.last.skewMs } : null,
});

export async function listServerVerdicts(db: Db, range: TimeRange): Promise<TServerListResponse> {
  const registered = await registeredServers(db);
  const totMap = await rollupTotalsByServer(db.sql, TOTALS);
  const lastMap = await lastEventAtByServer(db.sql);
  const lossMap = await reporterLossByServer(db.sql);
  const rejections = await rejectionsByServer(db.sql, { fromMs: range.fromMs, toMs: range.toMs, server: null });
  const names = new Set<string>([...registered.map((r) => r.name), ...totMap.keys(), ...lastMap.keys(), ...lossMap.keys()]);
  const regMap = new Map(registered.map((r) => [r.name, r.createdAt]));

  const servers: TServerView[] = [...names].sort().map((name) => {
    const t = totMap.get(name);
    const n = (col: (typeof TOTALS)[number]) => t?.[col] ?? 0;
    const counts: VerdictCounts = {
      boundary: n('boundary'),
      refused: n('refused'),
      naiveResumes: n('naiveResumes'),
      dualNegotiations: n('dualNegotiations'),
      burnedTokenReuses: n('burnedReuses'),
    };
    const last = lastMap.get(name) ?? null;
    const l = lossMap.get(name);
    return {
      name,
      registeredAt: regMap.get(name)?.toISOString() ?? null,
      lastSeenAt: last === null ? null : toIsoMs(last),
      events: n('events'),
      sessions: n('sessions'),
      verdict: verdictOf(counts),
      reporterLoss: l ? { instances: l.instances, dropped: l.dropped, failed: l.failed, lastReportAt: toIsoMs(l.lastReportAt) } : null,
      rejections: rejectionSummary(rejections.get(name)),
      counts,
    };
  });
  const unknown = rejections.get(UNKNOWN_SERVER_BUCKET);
  return {
    range: { from: toIsoMs(range.fromMs), to: toIsoMs(range.toMs), fromInput: range.fromInput, toInput: range.toInput },
    servers,
    unknownServers: { ...rejectionSummary(unknown), recentNames: unknown?.recentNames ?? [] },
  };
}
