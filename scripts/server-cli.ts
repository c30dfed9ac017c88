// npm run server -- add NAME | rotate NAME [--grace-seconds N] | list | remove NAME
import { openDb } from '@/lib/db/client';
import { settings } from '@/lib/config/settings';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { StoreError } from '@/lib/store/store-error';
import { cliAudit } from './cli-audit';
import { addServer, DEFAULT_ROTATION_GRACE_SECONDS, listServers, removeServer, rotateSecret } from '@/lib/store/servers/server-registry';

const USAGE = `usage: npm run server -- <command>
  add NAME                          register a server; prints its new secret once
  rotate NAME [--grace-seconds N]   new secret; the old one stays valid N s (default ${DEFAULT_ROTATION_GRACE_SECONDS})
  list                              registered servers and their secrets' validity
  remove NAME                       unregister (its stored events stay)`;

async function main() {
  const [command, name, ...rest] = process.argv.slice(2);
  const config = settings().DATABASE_URL;
  await runMigrations(config);
  const db = openDb(config);
  try {
    switch (command) {
      case 'add': {
        const { secret } = await addServer(db, name ?? '', undefined, cliAudit());
        console.log(`server ${name} registered. Its signing secret (shown once, store it in the server's config):\n${secret}`);
        break;
      }
      case 'rotate': {
        const i = rest.indexOf('--grace-seconds');
        const grace = i >= 0 ? Number(rest[i + 1]) : DEFAULT_ROTATION_GRACE_SECONDS;
        const r = await rotateSecret(db, name ?? '', grace, cliAudit());
        console.log(`new secret for ${name} (shown once):\n${r.secret}\nprevious secret(s) valid until ${r.previousValidUntil}`);
        break;
      }
      case 'list': {
        const servers = await listServers(db);
        if (servers.length === 0) console.log('no servers registered');
        for (const s of servers) {
          const secrets = s.secrets.map((x) => (x.expiresAt ? `1 expiring ${x.expiresAt}` : '1 active')).join(', ');
          console.log(`${s.name.padEnd(24)} since ${s.createdAt}  secrets: ${secrets || 'none valid'}`);
        }
        break;
      }
      case 'remove':
        await removeServer(db, name ?? '', cliAudit());
        console.log(`server ${name} removed`);
        break;
      default:
        console.error(USAGE);
        process.exitCode = 2;
    }
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  const code = err instanceof StoreError ? err.code : 'error';
  console.error(`server: [${code}] ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
