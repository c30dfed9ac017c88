// Door probes for the API: setting a target (validated: registered server, http(s) URL without
// credentials, a usable header, an interval no shorter than DOORWATCH_PROBE_MIN_INTERVAL_MS),
// running it now, and the history. Stored forms → views; the credential value never leaves.
import type { Db } from '@/lib/db/client';
import { toIsoMs } from '@/lib/contract/timestamp';
import type { TProbeHistoryResponse, TProbeRunView, TProbeTargetRequest, TProbeTargetView } from '@/lib/contract/api/probes';
import { settings } from '@/lib/config/settings';
import { ApiError } from '@/lib/http/api-error';
import { ProbeTargetError, checkCredentialHeader, parseProbeUrl } from '@/lib/probes/probe-target';
import { runServerProbe } from '@/lib/probes/probe-service';
import { countProbeRuns, readProbeRuns, type StoredProbeRun } from '@/lib/store/probe-runs';
import type { ProbeVerdict } from '@/lib/contract/probe-result';
import { deleteProbeTarget, readProbeTarget, upsertProbeTarget, type StoredProbeTarget } from '@/lib/store/probe-targets';
import { registeredServers } from '@/lib/store/servers/server-registry';

export const CREDENTIAL_IN_CLEAR =
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

async function assertRegistered(db: Db, server: string): Promise<void> {
  if (!(await registeredServers(db)).some((s) => s.name === server)) {
    throw new ApiError(404, 'server_not_found', `no registered server named "${server}"; register it first (POST /api/v1/admin/servers)`);
  }
}

const asApiError = (err: unknown): never => {
  if (err instanceof ProbeTargetError) throw new ApiError(400, err.code, err.message);
  throw err;
};

export async function setProbeTarget(db: Db, server: string, body: TProbeTargetRequest): Promise<TProbeTargetView> {
  await assertRegistered(db, server);
  let url: string;
  try {
    url = parseProbeUrl(body.url).href;
    if (body.credential) checkCredentialHeader(body.credential.header);
  } catch (err) {
    return asApiError(err);
  }
  const intervalMs = body.intervalSeconds * 1000;
  const min = settings().DOORWATCH_PROBE_MIN_INTERVAL_MS;
  if (intervalMs < min)
    throw new ApiError(
      400,
      'probe_interval_too_short',
      `intervalSeconds must be at least ${Math.ceil(min / 1000)} (DOORWATCH_PROBE_MIN_INTERVAL_MS)`,
    );
  return toProbeTargetView(
    await upsertProbeTarget(db.sql, server, { url, credential: body.credential, intervalMs, enabled: body.enabled }, Date.now()),
  );
}

export async function clearProbeTarget(db: Db, server: string): Promise<void> {
  if (!(await deleteProbeTarget(db.sql, server)))
    throw new ApiError(404, 'probe_target_not_found', `server "${server}" has no probe target`);
}

/** Runs the probe now and answers with the stored run (bounded by the engine's step deadlines). */
export async function runProbeNow(db: Db, server: string): Promise<TProbeRunView> {
  try {
    return toProbeRunView(await runServerProbe(db, server, 'manual'));
  } catch (err) {
    return asApiError(err);
  }
}

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
