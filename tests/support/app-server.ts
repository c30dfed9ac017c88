// Starts the real, built Doorwatch (`npm start` path: migrations, provisioning, next start)
// on a free loopback port with its own database, for integration and browser tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig, type Provider } from '@/lib/db/config';
import { freePort } from './free-port';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface AppServer {
  url: string;
  databaseUrl: string;
  provider: Provider;
  env: NodeJS.ProcessEnv;
  /** Provider-neutral look into the app's database (`?` placeholders, BIGINT → number); works after crash(). */
  query<T = any>(text: string, params?: readonly unknown[]): Promise<T[]>;
  output(): string;
  /** Kills the whole process group at once (simulates a crash); the database stays for inspection. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

export interface AppServerOptions {
  env?: Record<string, string>;
  /**
   * Defaults to a fresh database of DOORWATCH_TEST_DATABASE's provider (SQLite file in a temp
   * folder, or a new PostgreSQL database on DOORWATCH_TEST_PG_URL), removed by stop().
   * A given URL (e.g. shared by two instances) is left in place.
   */
  databaseUrl?: string;
}

const root = join(__dirname, '..', '..');

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const port = await freePort();
  const owned: TestDatabase | null = options.databaseUrl ? null : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? owned!.url;
  const config = readDatabaseConfig({ DATABASE_URL: databaseUrl });
  let inspector: Db | null = null;
  const query = <T>(text: string, params: readonly unknown[] = []): Promise<T[]> => {
    if (owned) return owned.query<T>(text, params);
    inspector ??= openDb(config);
    return inspector.sql.query<T>(text, params);
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NEXT_TELEMETRY_DISABLED: '1',
    DOORWATCH_ADMIN_TOKEN: 'dw_test_admin_token_0123456789abcdef',
    // Tests post events at fixed historical times: no pruning unless a test asks for it.
    DOORWATCH_RETENTION_DAYS: '0',
    ...options.env,
  };
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/start.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: tsx, the start script and `next start` are stopped (or crashed) together.
    detached: true,
  });
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  const cleanup = async () => {
    await inspector?.close();
    inspector = null;
    await owned?.drop();
  };
  for (;;) {
    if (child.exitCode !== null) {
      await cleanup();
      throw new Error(`app exited with ${child.exitCode}:\n${log}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
      await cleanup();
      throw new Error(`app did not become healthy within 60 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  const ended = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return signalGroup('SIGKILL');
    const exited = new Promise((r) => child.once('exit', r));
    signalGroup(signal);
    const timer = setTimeout(() => signalGroup('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    signalGroup('SIGKILL'); // anything of the group still left
  };
  return {
    url,
    databaseUrl,
    provider: config.provider,
    env,
    query,
    output: () => log,
    crash: () => ended('SIGKILL'),
    async stop() {
      await ended('SIGTERM');
      await cleanup();
    },
  };
}
