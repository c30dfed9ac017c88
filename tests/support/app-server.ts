// Starts the real, built Doorwatch (`npm start` path: migrations, provisioning, then serving)
// on a free loopback port with its own database, for integration and browser tests.
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig, type Provider } from '@/lib/config/database-url';
import { startDoorwatchProcess, type DoorwatchProcess } from '@/scripts/launch/doorwatch-process';
import { createTestDatabase, type TestDatabase } from './test-database';

/** The bootstrap admin token every test server starts with. */
export const TEST_ADMIN_TOKEN = 'dw_test_admin_token_0123456789abcdef';

export interface AppServer {
  url: string;
  port: number;
  /** The process group's leader (the start script); `next start` runs in the same group. */
  pid: number;
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
  /** Listen on this port (an instance restarted where its pages expect it); default a free one. */
  port?: number;
}

/** Lines of the app's log where Node's last-resort handler caught something: a failure handled nowhere. */
export function uncaughtLines(app: Pick<AppServer, 'output'>): string[] {
  return app
    .output()
    .split('\n')
    .filter((l) => /uncaughtException|unhandledRejection/.test(l));
}

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const owned: TestDatabase | null = options.databaseUrl ? null : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? owned!.url;
  const config = readDatabaseConfig({ DATABASE_URL: databaseUrl });
  let inspector: Db | null = null;
  const query = <T>(text: string, params: readonly unknown[] = []): Promise<T[]> => {
    if (owned) return owned.query<T>(text, params);
    inspector ??= openDb(config);
    return inspector.sql.query<T>(text, params);
  };
  const cleanup = async () => {
    await inspector?.close();
    inspector = null;
    await owned?.drop();
  };
  let app: DoorwatchProcess;
  try {
    app = await startDoorwatchProcess({
      env: {
        DATABASE_URL: databaseUrl,
        DOORWATCH_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        // Tests post events at fixed historical times: no pruning unless a test asks for it, and no
        // deadlock maximum (their days-old deadlocks would all be "end unreported"; '' asks for the default).
        DOORWATCH_RETENTION_DAYS: '0',
        DOORWATCH_DEADLOCK_MAX_MS: '0',
        // The tests' MCP servers (the simulator) listen on loopback; tests of the address policy set their own.
        DOORWATCH_PROBE_ALLOW: 'public,private,loopback',
        ...options.env,
      },
      port: options.port,
    });
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    url: app.url,
    port: app.port,
    pid: app.pid,
    databaseUrl,
    provider: config.provider,
    env: app.env,
    query,
    output: app.output,
    crash: app.crash,
    async stop() {
      await app.stop();
      await cleanup();
    },
  };
}
