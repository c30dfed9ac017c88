// Work done once before serving: things that need the database migrated first.
import { closeDb, getDb } from '@/lib/db/client';
import { provisionServersFromEnv, sealStoredSecrets } from '@/lib/store/servers/server-registry';
import { sealContactPointSecrets } from '@/lib/store/alert-contact-points';

export async function prepareInstance(): Promise<void> {
  const db = getDb();
  const servers = await provisionServersFromEnv(db);
  if (servers.length) console.log(`servers provisioned from DOORWATCH_SERVERS: ${servers.join(', ')}`);
  const { sealed, inClear } = await sealStoredSecrets(db);
  if (sealed) console.log(`webhook secrets: sealed ${sealed} stored in clear with DOORWATCH_SECRET_KEY`);
  if (inClear) console.log(`webhook secrets: ${inClear} stored unencrypted; set DOORWATCH_SECRET_KEY (openssl rand -base64 32) to seal them at rest`);
  const sealedContactPoints = await sealContactPointSecrets(db.sql);
  if (sealedContactPoints) console.log(`alert contact point secrets: sealed ${sealedContactPoints} stored in clear with DOORWATCH_SECRET_KEY`);
  await (await import('@/lib/auth/bootstrap-admin')).prepareBootstrapAdmin(db);
  // (add further start-up steps above this line: the connection closes here; serving opens its own)
  await closeDb();
}
