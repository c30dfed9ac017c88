// Work done once before serving: things that need the database migrated first.
import { closeDb, getDb } from '@/lib/db/client';
import { componentLogger } from '@/lib/log/logger';
import { settings } from '@/lib/config/settings';
import { ensurePartitionsAhead } from '@/lib/store/partitions';
import { provisionServersFromEnv, sealStoredSecrets } from '@/lib/store/servers/server-registry';
import { sealContactPointSecrets } from '@/lib/store/alert-contact-points';
import { sealProbeCredentials } from '@/lib/store/probe-targets';

export async function prepareInstance(): Promise<void> {
  const db = getDb();
  const servers = await provisionServersFromEnv(db);
  const log = componentLogger('startup');
  if (servers.length) log.info({ servers }, 'servers provisioned from DOORWATCH_SERVERS');
  const { sealed, inClear } = await sealStoredSecrets(db);
  if (sealed) log.info({ sealed }, 'webhook secrets stored in clear sealed with DOORWATCH_SECRET_KEY');
  if (inClear)
    log.warn({ inClear }, 'webhook secrets stored unencrypted; set DOORWATCH_SECRET_KEY (openssl rand -base64 32) to seal them at rest');
  const sealedContactPoints = await sealContactPointSecrets(db.sql);
  if (sealedContactPoints)
    log.info({ sealedContactPoints }, 'alert contact point secrets stored in clear sealed with DOORWATCH_SECRET_KEY');
  const probes = await sealProbeCredentials(db.sql);
  if (probes.sealed)
    log.info({ sealedProbeCredentials: probes.sealed }, 'probe credentials stored in clear sealed with DOORWATCH_SECRET_KEY');
  if (probes.inClear)
    log.warn(
      { probeCredentialsInClear: probes.inClear },
      'probe target credentials stored unencrypted; set DOORWATCH_SECRET_KEY (openssl rand -base64 32) to seal them at rest',
    );
  const probeAllow = settings().DOORWATCH_PROBE_ALLOW;
  const beyondPublic = probeAllow.filter((c) => c !== 'public');
  if (beyondPublic.length)
    (probeAllow.includes('metadata') ? log.warn.bind(log) : log.info.bind(log))(
      { probeAllow },
      `door probes may connect to ${beyondPublic.join(', ')} addresses (DOORWATCH_PROBE_ALLOW=${probeAllow.join(',')}); set it to "public" to keep them to public addresses`,
    );
  await (await import('@/lib/auth/bootstrap-admin')).prepareBootstrapAdmin(db);
  // PostgreSQL: today's and the coming days' partitions exist before the first event arrives
  // (the retention job keeps them ahead from then on).
  // Never a reason not to start: the default partition takes any row meanwhile and the job retries.
  try {
    const partitions = await ensurePartitionsAhead(db.sql, Date.now(), settings().DOORWATCH_PARTITION_DAYS_AHEAD);
    if (partitions.length) log.info({ partitions }, 'daily partitions created ahead');
  } catch (err) {
    log.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'could not create daily partitions ahead (the retention job retries)',
    );
  }
  // (add further start-up steps above this line: the connection closes here; serving opens its own)
  await closeDb();
}
