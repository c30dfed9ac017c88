// GET /api/v1/servers: registered servers and servers seen in data, with a conformance verdict.
import type { Db } from '@/lib/db/client';
import type { TServerListResponse, TServerProbeSummary, TServerVerdict, TServerView, TVerdictEvidence } from '@/lib/contract/api/servers';
import type { StepFinding } from '@/lib/contract/probe-result';
import { toIsoMs } from '@/lib/contract/timestamp';
import { latestProbeVerdicts } from '@/lib/store/probe-runs';
import { reporterLossByServer } from '@/lib/store/reporter-status';
import { UNKNOWN_SERVER_BUCKET, rejectionsByServer, type ServerRejections } from '@/lib/store/ingest-rejections';
import type { TRejectionSummary } from '@/lib/contract/api/rejections';
import type { TimeRange } from '@/lib/time/range';
import { rollupTotalsByServer } from '@/lib/store/rollups';
import { registeredServers } from '@/lib/store/servers/server-registry';
import { lastEventAtByServer } from '@/lib/store/sessions';
import type { TResumptionCounts } from '@/lib/contract/api/resumption-counts';
import { NO_RESUMPTION } from '@/lib/store/resumption-counts';
import { RESUMPTION_COLUMNS } from '@/lib/metrics/rollup-contributions';
import { versionChangesByServer } from './server-versions';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

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

/** Probe findings that prove the server does not refuse at the door (the others fail for other reasons). */
const NAIVE_FINDINGS: ReadonlySet<StepFinding> = new Set(['deadlock', 'dual_negotiation', 'naive_resume', 'conflict']);

const RESUMPTION_VERDICT_TEXT: Record<Exclude<TServerVerdict, 'refuses' | 'naive' | 'unknown'>, string> = {
  resumes_correctly: 'resumes correctly — its SSE resumes replayed what the store held',
  lossy_resumes: 'lossy resumes — some resumes replayed fewer events than the store held',
  idle_resumes: 'idle resumes — some resumes answered 200 and nothing while events were pending',
};

export interface CombinedVerdict {
  verdict: TServerVerdict;
  evidence: TVerdictEvidence;
  text: string;
}

function ago(ms: number): string {
  const min = Math.floor(Math.max(0, ms) / 60_000);
  if (min < 1) return 'just now';
  if (min < 120) return `${min} min ago`;
  const h = Math.floor(min / 60);
  return h < 48 ? `${h} h ago` : `${Math.floor(h / 24)} d ago`;
}

/** HH:MM (UTC) of a probe, with the date when it is not today's. */
function clock(iso: string, nowMs: number): string {
  const sameDay = iso.slice(0, 10) === new Date(nowMs).toISOString().slice(0, 10);
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 16)}`;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The conformance verdict from observed traffic and the latest door probe, saying which.
 * Any naive observation wins (one is enough); a failed probe whose findings show naive answers
 * makes it naive too; a passed probe makes an unknown server "refuses". A probe that failed for
 * another reason (over-refusal, a broken upgrade) or was inconclusive does not change the verdict,
 * and the text says so. Pure.
 */
export function combineVerdict(c: VerdictCounts, probe: TServerProbeSummary | null, nowMs: number, r?: TResumptionCounts): CombinedVerdict {
  const traffic = verdictOf(c, r);
  const naiveSessions = c.naiveResumes + c.dualNegotiations + c.burnedTokenReuses;
  const probeNaive = probe?.verdict === 'fail' && probe.failedSteps.some((s) => NAIVE_FINDINGS.has(s.finding));
  const at = probe && clock(probe.startedAt, nowMs);
  const trafficText = traffic === 'naive' ? `${plural(naiveSessions, 'session')} observed` : `${plural(c.refused, 'session')} refused`;

  const other =
    probe?.verdict === 'fail' && !probeNaive
      ? `; probe at ${at} failed (${[...new Set(probe.failedSteps.map((s) => s.finding))].join(', ')})`
      : '';
  const inconclusive = probe?.verdict === 'inconclusive' ? `; probe at ${at} inconclusive` : '';
  if (probeNaive || traffic === 'naive') {
    const parts = [probeNaive ? `probe at ${at}` : null, traffic === 'naive' ? trafficText : null].filter(Boolean);
    const evidence: TVerdictEvidence = probeNaive && traffic === 'naive' ? 'probe_and_traffic' : probeNaive ? 'probe' : 'traffic';
    const passed = !probeNaive && probe?.verdict === 'pass' ? ` (the probe at ${at} passed)` : '';
    // Naive traffic stands whatever the latest probe says, but a later probe that proved nothing is named.
    return { verdict: 'naive', evidence, text: `resumes naively — ${parts.join(', and ')}${passed}${other}${inconclusive}` };
  }
  if (probe?.verdict === 'pass') {
    const probed = `probed ${ago(nowMs - Date.parse(probe.startedAt))}`;
    if (traffic === 'refuses')
      return { verdict: 'refuses', evidence: 'probe_and_traffic', text: `refuses — ${probed}, and ${trafficText}` };
    return { verdict: 'refuses', evidence: 'probe', text: `refuses — ${probed}` };
  }
  if (traffic === 'refuses') return { verdict: 'refuses', evidence: 'traffic', text: `refuses — ${trafficText}${other}${inconclusive}` };
  // Never answered at the door: what its ordinary SSE resumes showed (servers without the upgrade).
  if (traffic !== 'unknown')
    return { verdict: traffic, evidence: 'traffic', text: `${RESUMPTION_VERDICT_TEXT[traffic]}${other}${inconclusive}` };
  return {
    verdict: 'unknown',
    evidence: 'none',
    text: `unknown — ${probe ? 'no boundary resume observed' : 'no probe and no boundary resume observed yet'}${other}${inconclusive}`,
  };
}

const TOTALS = ['events', 'sessions', 'boundary', 'refused', 'naiveResumes', 'dualNegotiations', 'burnedReuses'] as const;

const rejectionSummary = (r: ServerRejections | undefined): TRejectionSummary => ({
  count: r?.count ?? 0,
  byReason: r?.byReason ?? {},
  last: r?.last ? { reason: r.last.reason, at: toIsoMs(r.last.at), skewMs: r.last.skewMs } : null,
});

export async function listServerVerdicts(db: Db, range: TimeRange): Promise<TServerListResponse> {
  // Independent reads, issued together. Every total, resumption health included, comes from the
  // quarter-hour rollups (the resumption counters sit at each session's last event, so all-time sums
  // are per-session sums), not from a GROUP BY over every Session row (~120 ms at 1M sessions).
  const nowMs = doorwatchNow();
  const [registered, totMap, lastMap, lossMap, probeMap, rejections, changes] = await Promise.all([
    registeredServers(db),
    rollupTotalsByServer(db.sql, [...TOTALS, ...RESUMPTION_COLUMNS]),
    lastEventAtByServer(db.sql),
    reporterLossByServer(db.sql),
    latestProbeVerdicts(db.sql),
    rejectionsByServer(db.sql, { fromMs: range.fromMs, toMs: range.toMs, server: null }),
    versionChangesByServer(db, nowMs),
  ]);
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
    const health: TResumptionCounts = { ...NO_RESUMPTION };
    for (const k of RESUMPTION_COLUMNS) health[k] = t?.[k] ?? 0;
    const last = lastMap.get(name) ?? null;
    const l = lossMap.get(name);
    const p = probeMap.get(name);
    const probe: TServerProbeSummary | null = p
      ? { runId: p.runId, startedAt: toIsoMs(p.startedAt), verdict: p.verdict, failedSteps: p.failedSteps }
      : null;
    const combined = combineVerdict(counts, probe, nowMs, health);
    const change = changes.get(name) ?? null;
    return {
      name,
      registeredAt: regMap.get(name)?.toISOString() ?? null,
      lastSeenAt: last === null ? null : toIsoMs(last),
      events: n('events'),
      sessions: n('sessions'),
      verdict: combined.verdict,
      // When the behaviour changed with a version, the verdict says since which one.
      verdictText: change ? `${combined.text}; ${change.text}` : combined.text,
      versionChange: change,
      evidence: combined.evidence,
      probe,
      reporterLoss: l ? { instances: l.instances, dropped: l.dropped, failed: l.failed, lastReportAt: toIsoMs(l.lastReportAt) } : null,
      rejections: rejectionSummary(rejections.get(name)),
      counts,
      resumption: health,
    };
  });
  const unknown = rejections.get(UNKNOWN_SERVER_BUCKET);
  return {
    range: { from: toIsoMs(range.fromMs), to: toIsoMs(range.toMs), fromInput: range.fromInput, toInput: range.toInput },
    servers,
    unknownServers: { ...rejectionSummary(unknown), recentNames: unknown?.recentNames ?? [] },
  };
}
