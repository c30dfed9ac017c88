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
  // Idle keep-alive connections stay open longer than load balancers keep theirs (AWS ALB: 60 s), so a
  // balancer (or any client) never sends a request on a connection Node has just closed: with Node's
  // default 5 s that race shows up as sporadic 502s / "other side closed".
  const keepAliveMs = process.env.DOORWATCH_KEEP_ALIVE_TIMEOUT_MS ?? '65000';
  if (!/^\d{1,7}$/.test(keepAliveMs) || Number(keepAliveMs) < 1) throw new Error('DOORWATCH_KEEP_ALIVE_TIMEOUT_MS must be a positive integer (milliseconds)');
  const nextArgs = ['start', '-p', port, '-H', host, '--keepAliveTimeout', keepAliveMs];
  const child = spawn(process.execPath, [join(process.cwd(), 'node_modules/next/dist/bin/next'), ...nextArgs], {
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
