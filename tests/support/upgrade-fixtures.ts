// Where the upgrade fixtures live and how one is restored: tests/fixtures/upgrade/<release>/ holds
// sqlite.db.gz (a VACUUM INTO copy), postgresql.sql.gz (pg_dump --format=plain --no-owner) and, per
// database, the recorded answers (<provider>.json, tests/support/upgrade-seed.ts).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { Provider } from '@/lib/config/database-url';
import { adminQuery, testPgUrl, withDatabase } from './test-database';
import type { UpgradeFixture } from './upgrade-seed';

const run = promisify(execFile);
const FIXTURES = join(__dirname, '..', 'fixtures', 'upgrade');

/**
 * The settings both the release that writes a fixture and the app that reads it run with: no pruning
 * (the data is dated in the past), probe targets on loopback allowed, the leader's incident sweep
 * every half second (the fixture waits for its incidents), incidents that never resolve by
 * themselves for being quiet, and no deadlock maximum (the upgraded app would otherwise resolve the
 * incidents and call the fixture's 29 Nov deadlock "end unreported": answers decided by the time
 * between writing and reading, not by the upgrade; releases before v0.47.0 ignore the setting and
 * had no maximum).
 */
export const FIXTURE_ENV: Record<string, string> = {
  DOORWATCH_RETENTION_DAYS: '0',
  DOORWATCH_PROBE_ALLOW: 'public,private,loopback',
  DOORWATCH_ALERT_INTERVAL_MS: '500',
  DOORWATCH_INCIDENT_QUIET_MS: String(10 * 365 * 86_400_000),
  DOORWATCH_DEADLOCK_MAX_MS: '0',
};

export const fixtureDir = (release: string) => join(FIXTURES, release);

/** The releases with a fixture, oldest first (by name: v0.32.0 < v0.33.0; numeric parts compared as numbers). */
export function fixtureReleases(): string[] {
  if (!existsSync(FIXTURES)) return [];
  return readdirSync(FIXTURES)
    .filter((name) => existsSync(join(FIXTURES, name, 'sqlite.json')))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

export function readFixture(release: string, provider: Provider): UpgradeFixture {
  return JSON.parse(readFileSync(join(fixtureDir(release), `${provider}.json`), 'utf8')) as UpgradeFixture;
}

export interface RestoredDatabase {
  url: string;
  /** Milliseconds the restore took (gunzip + write, or psql of the dump). */
  restoreMs: number;
  drop(): Promise<void>;
}

/** The release's database restored where a test can start an app on it: a new SQLite file, or a new PostgreSQL database. */
export async function restoreFixture(release: string, provider: Provider): Promise<RestoredDatabase> {
  const started = performance.now();
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'doorwatch-upgrade-'));
    const file = join(dir, 'doorwatch.db');
    writeFileSync(file, gunzipSync(readFileSync(join(fixtureDir(release), 'sqlite.db.gz'))));
    return {
      url: `file:${file}`,
      restoreMs: Math.round(performance.now() - started),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `dw_t_upgrade_${process.pid}_${Date.now()}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = withDatabase(testPgUrl(), name);
  const drop = () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'doorwatch-upgrade-'));
    const sqlFile = join(dir, 'dump.sql');
    writeFileSync(sqlFile, gunzipSync(readFileSync(join(fixtureDir(release), 'postgresql.sql.gz'))));
    try {
      await run('psql', ['--quiet', '--no-psqlrc', '-v', 'ON_ERROR_STOP=1', '--dbname', url, '--file', sqlFile]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } catch (err) {
    await drop();
    throw err;
  }
  return { url, restoreMs: Math.round(performance.now() - started), drop };
}
