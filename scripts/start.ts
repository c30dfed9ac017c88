// npm start: apply pending migrations, prepare the instance, then serve with `next start`.
// Started as `node .../next start` (not npx) so this process holds the real server's PID.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SettingsError, settings } from '@/lib/config/settings';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { prepareInstance } from '@/lib/startup/prepare-instance';
import { withStartupLock } from '@/lib/db/startup-lock';
import { componentLogger } from '@/lib/log/logger';
import { ensureBuild } from './ensure-build.mjs';

async function main() {
  // Settings first: a bad value stops the start (one line per bad value) before anything is built, migrated or served.
  const s = settings();
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  ensureBuild({ quiet: true });
  const config = s.DATABASE_URL;
  const report = await runMigrations(config);
  if (report.applied.length) componentLogger('migrations').info({ applied: report.applied }, 'migrations applied');
  await withStartupLock(config, prepareInstance); // instances starting together take turns
  // Idle keep-alive connections stay open longer than load balancers keep theirs (AWS ALB: 60 s), so a
  // balancer (or any client) never sends a request on a connection Node has just closed: with Node's
  // default 5 s that race shows up as sporadic 502s / "other side closed".
  const nextArgs = ['start', '-p', String(s.PORT), '-H', s.HOST, '--keepAliveTimeout', String(s.DOORWATCH_KEEP_ALIVE_TIMEOUT_MS)];
  const child = spawn(process.execPath, [join(process.cwd(), 'node_modules/next/dist/bin/next'), ...nextArgs], {
    stdio: 'inherit',
    env: process.env,
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((err) => {
  // Bad settings: the plain list, one line per bad value, for the person at the terminal (and before LOG_* is known).
  if (err instanceof SettingsError) process.stderr.write(`doorwatch start failed: ${err.message}\n`);
  else componentLogger('startup').fatal({ err: err instanceof Error ? err.message : String(err) }, 'doorwatch start failed');
  process.exit(1);
});
