// npm run operator -- create NAME --role viewer|admin|scrape|annotate | list | revoke ID
import { openDb } from '@/lib/db/client';
import { settings } from '@/lib/config/settings';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { ApiError } from '@/lib/http/api-error';
import { cliAudit } from './cli-audit';
import { createOperator, isOperatorRole, listOperators, revokeOperator } from '@/lib/auth/operators';

const USAGE = `usage: npm run operator -- <command>
  create NAME --role viewer|admin|scrape|annotate
                                    new operator token; printed once (stored hashed); scrape reads /metrics only,
                                    annotate only posts annotations (a CI/CD deploy marker token)
  list                              operator tokens (never the tokens themselves)
  revoke ID                         revoke a token; it and its login sessions stop working`;

async function main() {
  const [command, arg, ...rest] = process.argv.slice(2);
  if (!command || !['create', 'list', 'revoke'].includes(command)) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = settings().DATABASE_URL;
  await runMigrations(config);
  const db = openDb(config);
  try {
    if (command === 'create') {
      const i = rest.indexOf('--role');
      const role = i >= 0 ? rest[i + 1] : 'viewer';
      if (!arg || !isOperatorRole(role)) {
        console.error(USAGE);
        process.exitCode = 2;
        return;
      }
      const { operator, token } = await createOperator(db, arg, role, cliAudit());
      console.log(`operator ${operator.name} (${operator.role}) created with id ${operator.id}. Its token (shown once):\n${token}`);
    } else if (command === 'list') {
      const ops = await listOperators(db);
      if (ops.length === 0) console.log('no operator tokens');
      for (const o of ops) {
        const status = o.revokedAt ? `revoked ${o.revokedAt}` : `active, last used ${o.lastUsedAt ?? 'never'}`;
        console.log(`${o.id.padEnd(20)} ${o.role.padEnd(7)} ${o.name.padEnd(24)} created ${o.createdAt}  ${status}`);
      }
    } else {
      if (!arg) {
        console.error(USAGE);
        process.exitCode = 2;
        return;
      }
      const o = await revokeOperator(db, arg, cliAudit());
      console.log(`operator ${o.id} (${o.name}) revoked at ${o.revokedAt}`);
    }
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(
    err instanceof ApiError ? `${err.code}: ${err.message}` : `operator command failed: ${err instanceof Error ? err.message : err}`,
  );
  process.exit(1);
});
