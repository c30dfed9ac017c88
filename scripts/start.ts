// npm start: apply pending migrations, prepare the instance, then serve with `next start`.
// Started as `node .../next start` (not npx) so this process holds the real server's PID.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readDatabaseConfig } from '@/lib/db/config';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { prepareInstance } from '@/lib/startup/prepare-instance';
import { withStartupLock } from '@/lib/db/startup-lock';
import { ensureBuild } from './ensure-build.mjs';

async function main() {
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  ensureBuild({ quiet: true });
  const config = readDatabaseConfig();
  const report = await runMigrations(config);
  if (report.applied.length) console.log(`migrations: applied ${report.applied.join(', ')}`);
  await withStartupLock(config, prepareInstance); // instances starting together take turns
  const port = process.env.PORT ?? '3000';
  const host = process.env.HOST ?? '0.0.0.0';
  const child = spawn(process.execPath, [join(process.cwd(), 'node_modules/next/dist/bin/next'), 'start', '-p', port, '-H', host], {
    stdio: 'inherit',
    env: process.env,
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((err) => {
  console.error(`doorwatch start failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
