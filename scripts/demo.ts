// npm run demo: migrate the embedded SQLite database, start Doorwatch, and feed it live
// traffic from a simulated fleet (two refusing MCP servers, one naive one) over real
// HTTP/SSE/WebSocket on loopback. Registers door-probe targets at the fleet's servers and shortens
// two default rules' windows (scripts/sim/demo-admin.ts). Prints the URL and the login token, then
// a one-line summary every 30 s with the URL and where the token is kept.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensureBuild } from './ensure-build.mjs';
import { demoFleetServers, serversEnv, startDemoFleet } from '@/scripts/sim/demo-fleet';
import type { Fleet, FleetServerSpec } from '@/scripts/sim/fleet';
import { settings } from '@/lib/config/settings';
import { registerDemoProbes, tuneDemoRules } from '@/scripts/sim/demo-admin';
import { startDemoSummary } from '@/scripts/sim/demo-summary';

interface DemoCredentials {
  adminToken: string;
  servers: FleetServerSpec[];
  /** DOORWATCH_SECRET_KEY for the demo, so its webhook secrets are sealed at rest like a real install's. */
  secretKey?: string;
}

/** Kept beside the demo database so a restarted demo logs in and signs with the same secrets. */
function demoCredentials(dataDir: string): DemoCredentials {
  const file = join(dataDir, 'demo-credentials.json');
  const stored: Partial<DemoCredentials> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const creds: DemoCredentials = {
    adminToken: stored.adminToken ?? settings().DOORWATCH_ADMIN_TOKEN ?? `dw_demo_${randomBytes(16).toString('hex')}`,
    servers: stored.servers ?? demoFleetServers(),
    // An older demo folder has no key yet: one is added, and the start seals the secrets stored in clear.
    secretKey: stored.secretKey ?? randomBytes(32).toString('base64'),
  };
  if (JSON.stringify(stored) !== JSON.stringify(creds)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(creds, null, 2), { mode: 0o600 });
  }
  return creds;
}

async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`Doorwatch did not answer ${url}/api/health within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main() {
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  ensureBuild();
  const port = String(settings().PORT);
  // Beside the SQLite file (./data by default; a DATABASE_URL=file:… elsewhere takes its credentials along).
  const db = settings().DATABASE_URL;
  const dataDir = db.sqliteFile ? dirname(db.sqliteFile) : join(process.cwd(), 'data');
  const creds = demoCredentials(dataDir);
  const env = {
    // Warnings and errors only at the terminal, unless LOG_LEVEL in the environment (spread next) says otherwise.
    LOG_LEVEL: 'warn',
    ...process.env,
    PORT: port,
    DOORWATCH_ADMIN_TOKEN: creds.adminToken,
    DOORWATCH_SERVERS: serversEnv(creds.servers),
    // A key of the operator's own (in the environment, passed through above) wins.
    ...(settings().DOORWATCH_SECRET_KEY ? {} : { DOORWATCH_SECRET_KEY: creds.secretKey }),
    // The simulated fleet listens on loopback: a probe target at one of its servers must be reachable,
    // so loopback joins whatever DOORWATCH_PROBE_ALLOW says (the default: public,private).
    DOORWATCH_PROBE_ALLOW: [...new Set([...settings().DOORWATCH_PROBE_ALLOW, 'loopback'])].join(','),
    // Readable log lines for a person at the terminal (pino-pretty). Warnings and errors only (above): at
    // info every ingest POST is a line (~55 a second) and the URL and token scroll away; the demo prints
    // its own summary instead (scripts/sim/demo-summary.ts).
    LOG_FORMAT: 'pretty',
  };
  const app = spawn(process.execPath, [join(process.cwd(), 'scripts/start.mjs')], {
    stdio: 'inherit',
    env,
    // Its own process group: a Ctrl+C at the terminal reaches the demo alone, which stops the fleet
    // before Doorwatch (below).
    detached: true,
  });
  // Out of the terminal's group, it would outlive a demo that ends any other way: it ends with it.
  process.on('exit', () => {
    if (app.exitCode === null && app.signalCode === null) app.kill('SIGKILL');
  });
  let fleet: { stop(options?: { graceMs?: number }): Promise<void> } | null = null;
  let stopping = false;
  // Ctrl+C ends everything within 5 s: sessions get a moment to close, then are cut (a deadlocked
  // one would otherwise hold the terminal for its whole idle timeout); a second Ctrl+C exits at once.
  // The fleet stops first, so the ends of the cut sessions reach Doorwatch while it still takes them:
  // stopped the other way round, a deadlock cut here stayed unended in ./data, stuck on every later run.
  const shutdown = async (code: number) => {
    if (stopping) {
      app.kill('SIGKILL');
      process.exit(code);
    }
    stopping = true;
    setTimeout(() => {
      app.kill('SIGKILL'); // still draining connections (open dashboards' live streams): the demo keeps nothing
      process.exit(code);
    }, 5_000).unref();
    await fleet?.stop({ graceMs: 1_000 }).catch(() => undefined);
    app.kill('SIGTERM');
    if (app.exitCode === null && app.signalCode === null) await new Promise((r) => app.once('exit', r));
    process.exit(code);
  };
  // SIGHUP too: a closed terminal signals the demo's group, and Doorwatch is not in it.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void shutdown(0));
  app.on('exit', (code) => {
    if (stopping) return;
    console.error(`Doorwatch exited (${code}); stopping the demo`);
    void shutdown(code ?? 1);
  });

  const url = `http://localhost:${port}`;
  await waitForHealth(url);
  const started = await startDemoFleet({ doorwatchUrl: url, servers: creds.servers });
  fleet = started;
  const credentialsPath = shownPath(join(dataDir, 'demo-credentials.json'));
  const setup = await demoSetup(url, creds.adminToken, started);
  console.log(`
  Doorwatch demo is running: ${url}
  Log in with the operator token: ${creds.adminToken}
  (kept in ${credentialsPath} as "adminToken"; the demo reprints this URL and that path every 30 s)
  Simulated fleet: ${creds.servers.map((s) => `${s.name} (${s.mode})`).join(', ')} → live numbers within a minute,
  ${setup}
  Ctrl+C stops Doorwatch and the fleet. (Data and credentials stay in ${dataDir}.)
`);
  startDemoSummary({ url, token: creds.adminToken, credentialsPath, fleet: started });
}

/** A path as the reader types it: relative to the working directory when inside it. */
function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** Probe targets and the demo's rule windows; a failure is reported and the demo goes on without them. */
async function demoSetup(url: string, token: string, fleet: Fleet): Promise<string> {
  const done: string[] = [];
  try {
    await registerDemoProbes(url, token, fleet.servers);
    done.push('door probes of all three servers every 5 min (Servers page; the first within half a minute)');
  } catch (err) {
    done.push(`no door probes (${err instanceof Error ? err.message : err})`);
  }
  try {
    const tuned = await tuneDemoRules(url, token);
    if (tuned.length) done.push('the "Naive resume" and "Dual negotiation" rules look at the last 2 minutes instead of 5 (demo only)');
  } catch (err) {
    done.push(`alert rules unchanged (${err instanceof Error ? err.message : err})`);
  }
  done.push('the naive server misbehaves in the first 40 s of every 3 min, so alerts fire and resolve');
  return done.join(';\n  ');
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
