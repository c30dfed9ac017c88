// npm start, compiled (scripts/compile-start.mjs → dist/start/start.cjs) and run on plain node by
// scripts/start.mjs in two steps:
// 1. prepare(), in a short-lived child process: check the settings, build if the sources changed, apply
//    pending migrations, prepare the instance. Prisma's query compiler (WebAssembly, ~90 MB resident) is
//    loaded here and goes away with the child, instead of staying beside the server's own copy.
// 2. serve(), in the launching process itself: Next's handler (scripts/launch/next-server.ts), so that
//    process is the real server's PID.
import { SettingsError, settings } from '@/lib/config/settings';
import { componentLogger } from '@/lib/log/logger';
import { routeConsoleToLog } from '@/lib/log/console-lines';

export interface StartLauncher {
  /** Builds .next when the sources changed (scripts/ensure-build.mjs), after the settings are checked. */
  ensureBuild(): void;
}

async function runPrepare(launcher: StartLauncher) {
  // Settings first: a bad value stops the start (one line per bad value) before anything is built, migrated or served.
  const s = settings();
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  if (s.LOG_FORMAT !== 'pretty') routeConsoleToLog(componentLogger('startup'));
  launcher.ensureBuild();
  // Loaded on demand (esbuild keeps dynamic imports lazy), so serve() never loads the database code.
  const { runMigrations } = await import('@/lib/db/migrate/run-migrations');
  const { prepareInstance } = await import('@/lib/instance/prepare-instance');
  const { withStartupLock } = await import('@/lib/db/startup-lock');
  const config = s.DATABASE_URL;
  const report = await runMigrations(config);
  if (report.applied.length) componentLogger('migrations').info({ applied: report.applied }, 'migrations applied');
  await withStartupLock(config, prepareInstance); // instances starting together take turns
}

async function runServe() {
  const s = settings();
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  // Served in this process (not `next start`): forwarded headers are normalised from the socket first.
  (process.env as { NODE_ENV?: string }).NODE_ENV = 'production'; // as `next start` sets it
  // Next's own lines (console.*) become JSON log lines like every other (lib/log/console-lines.ts).
  if (s.LOG_FORMAT !== 'pretty') routeConsoleToLog(componentLogger('next'));
  const { startNextServer } = await import('@/scripts/launch/next-server');
  const { trackEventStreams } = await import('@/scripts/launch/event-streams');
  // Idle keep-alive connections stay open longer than load balancers keep theirs (AWS ALB: 60 s), so a
  // balancer (or any client) never sends a request on a connection Node has just closed: with Node's
  // default 5 s that race shows up as sporadic 502s / "other side closed".
  const server = await startNextServer({
    dir: process.cwd(),
    host: s.HOST,
    port: s.PORT,
    keepAliveTimeoutMs: s.DOORWATCH_KEEP_ALIVE_TIMEOUT_MS,
    // A client trickling its headers or body (slowloris) is cut after these instead of Node's 60 s / 300 s.
    headersTimeoutMs: s.DOORWATCH_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: s.DOORWATCH_REQUEST_TIMEOUT_MS,
    trustProxy: s.DOORWATCH_TRUST_PROXY,
  });
  const streams = trackEventStreams(server);
  componentLogger('startup').info({ url: `http://${s.HOST}:${s.PORT}` }, 'doorwatch listening');
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      server.close(() => process.exit(0));
      server.closeIdleConnections();
      // A response still being written now leaves its keep-alive connection idle when it ends, and close()
      // waits for that connection: close those as they go idle, not at the 5 s fallback below.
      setInterval(() => server.closeIdleConnections(), 50).unref();
      // Open pages learn at once that this instance is going (they reconnect, or say it is gone).
      streams.closeAll();
      setTimeout(() => process.exit(0), 5_000).unref();
    });
  }
}

function failed(err: unknown): never {
  // Bad settings: the plain list, one line per bad value, for the person at the terminal (and before LOG_* is known).
  if (err instanceof SettingsError) process.stderr.write(`doorwatch start failed: ${err.message}\n`);
  else {
    // A refusal's code (database_newer_than_app, secret_key_mismatch, …) is what an operator or a script switches on.
    const code = (err as { code?: unknown } | null)?.code;
    const fields = { err: err instanceof Error ? err.message : String(err), ...(typeof code === 'string' ? { code } : {}) };
    componentLogger('startup').fatal(fields, 'doorwatch start failed');
  }
  process.exit(1);
}

/** Step 1: exits 0 when the instance is ready to serve, 1 (with the reason on stderr) when not. */
export function prepare(launcher: StartLauncher): void {
  runPrepare(launcher).then(() => process.exit(0), failed);
}

/** Step 2: serves until SIGINT/SIGTERM. */
export function serve(): void {
  runServe().catch(failed);
}
