// Starts the real, built Doorwatch (`npm start` path: migrations, provisioning, next start)
// on a free loopback port with its own database, for integration and browser tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export interface AppServer {
  url: string;
  databaseUrl: string;
  env: NodeJS.ProcessEnv;
  output(): string;
  stop(): Promise<void>;
}

export interface AppServerOptions {
  env?: Record<string, string>;
  /** Defaults to a fresh SQLite file in a temp folder. */
  databaseUrl?: string;
}

const root = join(__dirname, '..', '..');

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'doorwatch-test-'));
  const databaseUrl = options.databaseUrl ?? `file:${join(dir, 'doorwatch.db')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NEXT_TELEMETRY_DISABLED: '1',
    DOORWATCH_ADMIN_TOKEN: 'dw_test_admin_token_0123456789abcdef',
    ...options.env,
  };
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/start.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`app exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`app did not become healthy within 60 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    databaseUrl,
    env,
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
