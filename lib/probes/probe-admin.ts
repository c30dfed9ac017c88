// Door probes' admin operations: setting a server's target (validated: registered server, http(s)
// URL without credentials, not a literal address DOORWATCH_PROBE_ALLOW refuses, a usable header, an interval no shorter than DOORWATCH_PROBE_MIN_INTERVAL_MS),
// clearing it, and running it now. Stored forms → views; the credential value never leaves.
import type { Db } from '@/lib/db/client';
import type { TProbeRunView, TProbeTargetRequest, TProbeTargetView } from '@/lib/contract/api/probes';
import { settings } from '@/lib/config/settings';
import { ApiError } from '@/lib/http/api-error';
import { toProbeRunView, toProbeTargetView } from '@/lib/queries/probe-history';
import { deleteProbeTarget, readProbeTarget, upsertProbeTarget } from '@/lib/store/probe-targets';
import { recordAudit, type AuditContext } from '@/lib/store/audit-log';
import { registeredServers } from '@/lib/store/servers/server-registry';
import { ProbeTargetError, checkCredentialHeader, parseProbeUrl } from './probe-target';
import { checkTargetAddress } from './address-policy';
import { runServerProbe } from './probe-service';

async function assertRegistered(db: Db, server: string): Promise<void> {
  if (!(await registeredServers(db)).some((s) => s.name === server)) {
    throw new ApiError(404, 'server_not_found', `no registered server named "${server}"; register it first (POST /api/v1/admin/servers)`);
  }
}

const asApiError = (err: unknown): never => {
  if (err instanceof ProbeTargetError) throw new ApiError(400, err.code, err.message);
  throw err;
};

export async function setProbeTarget(db: Db, server: string, body: TProbeTargetRequest, audit: AuditContext): Promise<TProbeTargetView> {
  await assertRegistered(db, server);
  let url: string;
  try {
    const parsed = parseProbeUrl(body.url);
    // A literal address (or metadata name) DOORWATCH_PROBE_ALLOW refuses is refused now; a name at each run.
    checkTargetAddress(parsed, settings().DOORWATCH_PROBE_ALLOW);
    url = parsed.href;
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
  const input = { url, credential: body.credential, intervalMs, enabled: body.enabled, stepTimeoutMs: body.stepTimeoutSeconds * 1000 };
  // The stored target's readers never return the credential's value: before and after hold whether one is set.
  const stored = await db.sql.transaction(async (tx) => {
    const before = await readProbeTarget(tx, server);
    const after = await upsertProbeTarget(tx, server, input, Date.now());
    await recordAudit(tx, audit, { action: before ? 'update' : 'create', entityType: 'probe_target', entityId: server, before, after });
    return after;
  });
  return toProbeTargetView(stored);
}

export async function clearProbeTarget(db: Db, server: string, audit: AuditContext): Promise<void> {
  const cleared = await db.sql.transaction(async (tx) => {
    const before = await readProbeTarget(tx, server);
    if (!before || !(await deleteProbeTarget(tx, server))) return false;
    await recordAudit(tx, audit, { action: 'delete', entityType: 'probe_target', entityId: server, before, after: null });
    return true;
  });
  if (!cleared) throw new ApiError(404, 'probe_target_not_found', `server "${server}" has no probe target`);
}

/** Runs the probe now and answers with the stored run (bounded by the engine's step deadlines). */
export async function runProbeNow(db: Db, server: string): Promise<TProbeRunView> {
  try {
    return toProbeRunView(await runServerProbe(db, server, 'manual'));
  } catch (err) {
    return asApiError(err);
  }
}
