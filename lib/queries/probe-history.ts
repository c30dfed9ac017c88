// A server's door-probe history for the API: its target and its runs, newest first, counted.
// Stored forms → views; the credential value never leaves.
import type { Db } from '@/lib/db/client';
import { toIsoMs } from '@/lib/contract/timestamp';
import type { TProbeHistoryResponse, TProbeRunView, TProbeTargetView } from '@/lib/contract/api/probes';
import type { ProbeVerdict } from '@/lib/contract/probe-result';
import { countProbeRuns, readProbeRuns, type StoredProbeRun } from '@/lib/store/probe-runs';
import { readProbeTarget, type StoredProbeTarget } from '@/lib/store/probe-targets';

const CREDENTIAL_IN_CLEAR =
  'the credential is stored unencrypted: set DOORWATCH_SECRET_KEY (openssl rand -base64 32) and restart to seal it';

export function toProbeTargetView(t: StoredProbeTarget): TProbeTargetView {
  return {
    server: t.server,
    url: t.url,
    credentialHeader: t.credentialHeader,
    credentialSet: t.credentialSet,
    credentialWarning: t.credentialInClear ? CREDENTIAL_IN_CLEAR : null,
    intervalSeconds: Math.round(t.intervalMs / 1000),
    enabled: t.enabled,
    stepTimeoutSeconds: Math.round(t.stepTimeoutMs / 1000),
    lastRunAt: t.lastRunAt === null ? null : toIsoMs(t.lastRunAt),
    createdAt: toIsoMs(t.createdAt),
    updatedAt: toIsoMs(t.updatedAt),
  };
}

export const toProbeRunView = (r: StoredProbeRun): TProbeRunView => ({
  id: r.id,
  server: r.server,
  startedAt: toIsoMs(r.startedAt),
  durationMs: r.durationMs,
  verdict: r.verdict,
  trigger: r.trigger,
  result: r.result,
});

export async function probeHistory(
  db: Db,
  server: string,
  q: { verdict: readonly ProbeVerdict[]; limit: number },
): Promise<TProbeHistoryResponse> {
  const filter = { server, verdicts: q.verdict };
  const target = await readProbeTarget(db.sql, server);
  const runs = await readProbeRuns(db.sql, filter, q.limit);
  const { total, totalCapped } = await countProbeRuns(db.sql, filter);
  return { target: target && toProbeTargetView(target), runs: runs.map(toProbeRunView), total, totalCapped };
}
