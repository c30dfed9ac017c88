// npm start: apply pending migrations, prepare the instance, then serve (Next's handler in this
// process, lib/launch/next-server.ts), so this process is the real server's PID.
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
  // Served in this process (not `next start`): forwarded headers are normalised from the socket first.
  (process.env as { NODE_ENV?: string }).NODE_ENV = 'production'; // as `next start` sets it
  const { startNextServer } = await import('@/lib/launch/next-server');
  const server = await startNextServer({
    dir: process.cwd(),
    host: s.HOST,
    port: s.PORT,
    keepAliveTimeoutMs: s.DOORWATCH_KEEP_ALIVE_TIMEOUT_MS,
    trustProxy: s.DOORWATCH_TRUST_PROXY,
  });
  componentLogger('startup').info({ url: `http://${s.HOST}:${s.PORT}` }, 'doorwatch listening');
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      server.close(() => process.exit(0));
      server.closeIdleConnections();
      setTimeout(() => process.exit(0), 5_000).unref();
    });
  }
}

main().catch((err) => {
  // Bad settings: the plain list, one line per bad value, for the person at the terminal (and before LOG_* is known).
  if (err instanceof SettingsError) process.stderr.write(`doorwatch start failed: ${err.message}\n`);
  else componentLogger('startup').fatal({ err: err instanceof Error ? err.message : String(err) }, 'doorwatch start failed');
  process.exit(1);
});
