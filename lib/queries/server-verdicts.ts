// GET /api/v1/servers: registered servers and servers seen in data, with a conformance verdict.
import type { Db } from '@/lib/db/client';
import type { TServerListResponse, TServerVerdict, TServerView } from '@/lib/contract/api/servers';
import { toIsoMs } from '@/lib/contract/timestamp';
import type { TResumptionCounts } from '@/lib/contract/api/resumption-counts';
import { NO_RESUMPTION, resumptionCounts } from './resumption-counts';

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
export function verdictOf(c: VerdictCounts, r?: TResumptionCounts): TServerVerdict {
  if (c.naiveResumes > 0 || c.dualNegotiations > 0 || c.burnedTokenReuses > 0) return 'naive';
  if (c.boundary > 0 && c.refused > 0) return 'refuses';
  // Never answered at the boundary: say what its ordinary resumes showed instead.
  if (r && r.idleResumes > 0) return 'idle_resumes';
  if (r && r.lossyResumes > 0) return 'lossy_resumes';
  if (r && r.checkedResumes > 0) return 'resumes_correctly';
  return 'unknown';
}

const sumOf = (col: string) => `COALESCE(CAST(SUM("${col}") AS BIGINT), 0) AS "${col}"`;

export async function listServerVerdicts(db: Db): Promise<TServerListResponse> {
  const registered = await db.prisma.server.findMany({ select: { name: true, createdAt: true } });
  const totals = await db.sql.query<Record<string, number | string>>(
    `SELECT "server", ${['events', 'sessions', 'boundary', 'refused', 'naiveResumes', 'dualNegotiations', 'burnedReuses'].map(sumOf).join(', ')}
       FROM "Rollup" GROUP BY "server"`,
  );
  const lastSeen = await db.sql.query<{ server: string; last: number }>(
    'SELECT "server", MAX("lastEventAt") AS "last" FROM "Session" GROUP BY "server"',
  );
  const loss = await db.sql.query<{ server: string; instances: number; dropped: number; failed: number; last: number }>(
    `SELECT "server", COUNT(*) AS "instances", ${['dropped', 'failed'].map(sumOf).join(', ')}, MAX("lastSeenAt") AS "last"
       FROM "ReporterStatus" GROUP BY "server"`,
  );
  const resumption = await resumptionCounts(db);
  const lossMap = new Map(loss.map((l) => [l.server, l]));
  const names = new Set<string>([...registered.map((r) => r.name), ...totals.map((t) => String(t.server)), ...lastSeen.map((l) => l.server), ...loss.map((l) => l.server)]);
  const regMap = new Map(registered.map((r) => [r.name, r.createdAt]));
  const totMap = new Map(totals.map((t) => [String(t.server), t]));
  const lastMap = new Map(lastSeen.map((l) => [l.server, l.last === null ? null : Number(l.last)]));

  const servers: TServerView[] = [...names].sort().map((name) => {
    const t = totMap.get(name);
    const n = (col: string) => (t ? Number(t[col] ?? 0) : 0);
    const counts: VerdictCounts = {
      boundary: n('boundary'),
      refused: n('refused'),
      naiveResumes: n('naiveResumes'),
      dualNegotiations: n('dualNegotiations'),
      burnedTokenReuses: n('burnedReuses'),
    };
    const health = resumption.get(name) ?? NO_RESUMPTION;
    const last = lastMap.get(name) ?? null;
    const l = lossMap.get(name);
    return {
      name,
      registeredAt: regMap.get(name)?.toISOString() ?? null,
      lastSeenAt: last === null ? null : toIsoMs(last),
      events: n('events'),
      sessions: n('sessions'),
      verdict: verdictOf(counts, health),
      reporterLoss: l
        ? { instances: Number(l.instances), dropped: Number(l.dropped), failed: Number(l.failed), lastReportAt: toIsoMs(Number(l.last)) }
        : null,
      counts,
      resumption: health,
    };
  });
  return { servers };
}
