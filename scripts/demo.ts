// npm run demo: migrate the embedded SQLite database, start Doorwatch, and feed it live
// traffic from a simulated fleet (two refusing MCP servers, one naive one) over real
// HTTP/SSE/WebSocket on loopback. Prints the URL and the login token.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensureBuild } from './ensure-build.mjs';
import { demoFleetServers, serversEnv, startDemoFleet } from '@/lib/sim/demo-fleet';
import type { FleetServerSpec } from '@/lib/sim/fleet';
import { settings } from '@/lib/config/settings';

interface DemoCredentials {
  adminToken: string;
  servers: FleetServerSpec[];
}

/** Kept beside the demo database so a restarted demo logs in and signs with the same secrets. */
function demoCredentials(dataDir: string): DemoCredentials {
  const file = join(dataDir, 'demo-credentials.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const creds: DemoCredentials = {
    adminToken: settings().DOORWATCH_ADMIN_TOKEN ?? `dw_demo_${randomBytes(16).toString('hex')}`,
    servers: demoFleetServers(),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(creds, null, 2), { mode: 0o600 });
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
  const creds = demoCredentials(join(process.cwd(), 'data'));
  const env = {
    ...process.env,
    PORT: port,
    DOORWATCH_ADMIN_TOKEN: creds.adminToken,
    DOORWATCH_SERVERS: serversEnv(creds.servers),
    // Readable log lines for a person at the terminal (pino-pretty).
    LOG_FORMAT: 'pretty',
  };
  const app = spawn(process.execPath, [join(process.cwd(), 'scripts/start.mjs')], {
    stdio: 'inherit',
    env,
  });
  let fleet: { stop(): Promise<void> } | null = null;
  const shutdown = async (code: number) => {
    await fleet?.stop().catch(() => undefined);
    app.kill('SIGTERM');
    process.exit(code);
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void shutdown(0));
  app.on('exit', (code) => {
    console.error(`Doorwatch exited (${code}); stopping the demo`);
    void fleet?.stop().finally(() => process.exit(code ?? 1));
  });

  const url = `http://localhost:${port}`;
  await waitForHealth(url);
  fleet = await startDemoFleet({ doorwatchUrl: url, servers: creds.servers });
  console.log(`
  Doorwatch demo is running: ${url}
  Log in with the operator token: ${creds.adminToken}
  Simulated fleet: ${creds.servers.map((s) => `${s.name} (${s.mode})`).join(', ')} → live numbers within a minute.
  Ctrl+C stops Doorwatch and the fleet. (Data and credentials stay in ./data.)
`);
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
