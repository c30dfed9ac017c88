// Work done once before serving: things that need the database migrated first.
import { getDb } from '@/lib/db/client';
import { provisionServersFromEnv } from '@/lib/ingest/servers/server-registry';

export async function prepareInstance(): Promise<void> {
  const db = getDb();
  const servers = await provisionServersFromEnv(db);
  if (servers.length) console.log(`servers provisioned from DOORWATCH_SERVERS: ${servers.join(', ')}`);
  await (await import('@/lib/auth/bootstrap-admin')).prepareBootstrapAdmin(db);
  // (add further start-up steps above this line: the connection closes here, next start runs in its own process)
  await db.close();
}
