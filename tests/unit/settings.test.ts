// The settings schema (lib/config/settings.ts) is the one source of truth: defaults apply, every
// bad value is named on its own line, secrets are never echoed, README's Configuration table and
// the code name the same variables, and `npm start` stops on a bad value before it does anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SETTING_NAMES, SettingsError, readSettings, type Settings } from '@/lib/config/settings';
import { rateLimiterFromEnv } from '@/lib/ingest/rate-limiter';
import { generateSecret } from '@/lib/contract/server-secret';

const ROOT = resolve(__dirname, '..', '..');

function problems(env: Record<string, string>): readonly string[] {
  try {
    readSettings(env);
  } catch (err) {
    assert.ok(err instanceof SettingsError, String(err));
    assert.equal(err.code, 'invalid_settings');
    return err.problems;
  }
  assert.fail(`accepted ${JSON.stringify(env)}`);
}

test('defaults apply when nothing (or only blanks) is set', () => {
  for (const env of [{}, { PORT: '  ', DOORWATCH_RETENTION_DAYS: '', DATABASE_URL: ' ' }]) {
    const s = readSettings(env);
    assert.ok(Object.isFrozen(s));
    assert.deepEqual(s.DATABASE_URL, { provider: 'sqlite', url: 'file:./data/doorwatch.db', sqliteFile: resolve('data/doorwatch.db') });
    assert.equal(s.PORT, 3000);
    assert.equal(s.HOST, '0.0.0.0');
    assert.equal(s.DOORWATCH_SERVERS, undefined);
    assert.equal(s.DOORWATCH_SECRET_KEY, null);
    assert.equal(s.DOORWATCH_SECRET_KEY_PREVIOUS, null);
    assert.equal(s.DOORWATCH_ADMIN_TOKEN, undefined);
    assert.equal(s.DOORWATCH_DEADLOCK_THRESHOLD_MS, 10_000);
    assert.equal(s.DOORWATCH_ALARM_HOLD_MS, 30_000);
    assert.equal(s.DOORWATCH_INGEST_RATE, 100_000);
    assert.equal(s.DOORWATCH_RETENTION_DAYS, 30);
    assert.equal(s.DOORWATCH_RETENTION_BATCH, 5_000);
    assert.equal(s.DOORWATCH_RETENTION_PAUSE_MS, 250);
    assert.equal(s.DOORWATCH_RETENTION_INTERVAL_MS, 3_600_000);
    assert.equal(s.DOORWATCH_PG_POOL_SIZE, 10);
    assert.equal(s.DOORWATCH_SQLITE_BUSY_TIMEOUT_MS, 1_000);
    assert.equal(s.DOORWATCH_TRUST_PROXY, false);
    assert.equal(s.DOORWATCH_KEEP_ALIVE_TIMEOUT_MS, 65_000);
    assert.equal(s.DOORWATCH_SESSION_SECRET, 'doorwatch-session-v1');
    assert.deepEqual(s.DOORWATCH_PUBLIC_ORIGIN, []);
    const limiter = rateLimiterFromEnv(s);
    assert.deepEqual([limiter.eventsPerSecond, limiter.burst], [100_000, 200_000], 'burst defaults to twice the rate');
  }
});

test('good values are parsed into their types', () => {
  const key = randomBytes(32).toString('base64');
  const servers = `edge=${generateSecret()}, core=${generateSecret()}`;
  const s = readSettings({
    DATABASE_URL: 'postgresql://u:pw@db:5432/doorwatch',
    PORT: '8080',
    DOORWATCH_SERVERS: servers,
    DOORWATCH_SECRET_KEY: ` ${key} `,
    DOORWATCH_ADMIN_TOKEN: 'a-long-enough-admin-token',
    DOORWATCH_DEADLOCK_THRESHOLD_MS: '1500',
    DOORWATCH_ALARM_HOLD_MS: '0',
    DOORWATCH_INGEST_RATE: '0',
    DOORWATCH_RETENTION_DAYS: '0',
    DOORWATCH_PUBLIC_ORIGIN: 'https://DW.example.com/, http://localhost:3000',
    UNRELATED: 'ignored',
  });
  assert.equal(s.DATABASE_URL.provider, 'postgresql');
  assert.equal(s.PORT, 8080);
  assert.equal(s.DOORWATCH_SERVERS, servers);
  assert.deepEqual(s.DOORWATCH_SECRET_KEY, Buffer.from(key, 'base64'));
  assert.equal(s.DOORWATCH_DEADLOCK_THRESHOLD_MS, 1500);
  assert.equal(s.DOORWATCH_ALARM_HOLD_MS, 0, '0 = no hold');
  assert.equal(s.DOORWATCH_INGEST_RATE, 0, '0 = unlimited');
  assert.equal(s.DOORWATCH_RETENTION_DAYS, 0, '0 = keep everything');
  assert.deepEqual(s.DOORWATCH_PUBLIC_ORIGIN, ['https://dw.example.com', 'http://localhost:3000']);
  assert.equal(rateLimiterFromEnv(readSettings({ DOORWATCH_INGEST_RATE: '10' })).burst, 1000, 'burst is at least 1000');
});

test('every bad value gets its own line, NAME: what is wrong (got "…"), secrets not shown', () => {
  const lines = problems({
    DATABASE_URL: 'mysql://root:hunter2@db/x',
    PORT: '70000',
    DOORWATCH_SERVERS: 'edge=whsec_hunter2',
    DOORWATCH_SECRET_KEY: 'hunter2',
    DOORWATCH_ADMIN_TOKEN: 'hunter2',
    DOORWATCH_DEADLOCK_THRESHOLD_MS: 'soon',
    DOORWATCH_INGEST_RATE: '-5',
    DOORWATCH_RETENTION_INTERVAL_MS: '10',
    DOORWATCH_PG_POOL_SIZE: '1.5',
    DOORWATCH_KEEP_ALIVE_TIMEOUT_MS: '0',
    DOORWATCH_PUBLIC_ORIGIN: 'https://dw.example.com/dashboard',
  });
  assert.deepEqual(lines, [
    'DATABASE_URL: must start with file: (SQLite) or postgresql:// (PostgreSQL) (got "mysql:...")',
    'PORT: must be a whole number from 0 to 65535 (got "70000")',
    'DOORWATCH_SERVERS: entry "edge" must look like name=whsec_<base64 of 24-64 bytes> (got "18 characters, not shown")',
    'DOORWATCH_SECRET_KEY: must be base64 of 32 random bytes (generate one with: openssl rand -base64 32) (got "7 characters, not shown")',
    'DOORWATCH_ADMIN_TOKEN: must be at least 16 characters (got "7 characters, not shown")',
    'DOORWATCH_DEADLOCK_THRESHOLD_MS: must be a number (got "soon")',
    'DOORWATCH_INGEST_RATE: must be a number >= 0 (got "-5")',
    'DOORWATCH_RETENTION_INTERVAL_MS: must be a whole number >= 1000 (got "10")',
    'DOORWATCH_PG_POOL_SIZE: must be a whole number from 1 to 1000 (got "1.5")',
    'DOORWATCH_KEEP_ALIVE_TIMEOUT_MS: must be a whole number from 1 to 9999999 (got "0")',
    'DOORWATCH_PUBLIC_ORIGIN: "https://dw.example.com/dashboard" is not an origin like https://doorwatch.example.com (got "https://dw.example.com/dashboard")',
  ]);
  assert.ok(!lines.join('\n').includes('hunter2'));
  assert.deepEqual(problems({ DATABASE_URL: 'file:' }), ['DATABASE_URL: names no file; use file:./data/doorwatch.db (got "file:...")']);
  assert.deepEqual(problems({ DOORWATCH_DEADLOCK_THRESHOLD_MS: '0' }), [
    'DOORWATCH_DEADLOCK_THRESHOLD_MS: must be a number >= 1 (got "0")',
  ]);
});

test('DATABASE_READ_URL: a PostgreSQL replica beside a PostgreSQL primary, never echoed', () => {
  assert.equal(readSettings({}).DATABASE_READ_URL, null);
  const s = readSettings({ DATABASE_URL: 'postgresql://u:pw@primary/dw', DATABASE_READ_URL: ' postgresql://u:pw@replica/dw ' });
  assert.deepEqual(s.DATABASE_READ_URL, { provider: 'postgresql', url: 'postgresql://u:pw@replica/dw', sqliteFile: null });
  assert.deepEqual(problems({ DATABASE_URL: 'postgresql://u:pw@primary/dw', DATABASE_READ_URL: 'mysql://u:hunter2@r/x' }), [
    'DATABASE_READ_URL: must be a postgresql:// URL (a streaming replica of DATABASE_URL) (got "mysql:...")',
  ]);
  assert.deepEqual(problems({ DATABASE_READ_URL: 'postgresql://u:hunter2@replica/dw' }), [
    'DATABASE_READ_URL: needs a postgresql:// DATABASE_URL (the primary it replicates)',
  ]);
});

/** The variable names of README's Configuration table (`_PAUSE_MS` after `DOORWATCH_RETENTION_BATCH` is DOORWATCH_RETENTION_PAUSE_MS). */
function readmeTable(): Map<string, string | null> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const rows = section.split('\n').filter((l) => l.startsWith('| `'));
  assert.ok(rows.length > 5, 'README has a Configuration table');
  const out = new Map<string, string | null>();
  for (const row of rows) {
    const [, names, defaults] = row.split('|').map((c) => c.trim());
    const listed = [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]);
    const values = [...defaults.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const prefix = listed[0].slice(0, listed[0].lastIndexOf('_'));
    listed.forEach((name, i) => out.set(name.startsWith('_') ? prefix + name : name, values.length === listed.length ? values[i] : null));
  }
  return out;
}

test("README's Configuration table and the schema list the same variables, with the same defaults", () => {
  const table = readmeTable();
  assert.deepEqual([...table.keys()].sort(), [...SETTING_NAMES].sort());
  const defaults = readSettings({}) as Settings & Record<string, unknown>;
  for (const [name, documented] of table) {
    const value = name === 'DATABASE_URL' ? defaults.DATABASE_URL.url : defaults[name];
    if (documented === null || (typeof value !== 'number' && typeof value !== 'string')) continue;
    assert.equal(String(value), documented, `README's default for ${name}`);
  }
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'generated') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : []; // (.mjs test runners are tooling, not app settings)
  });
}

const APP_SOURCES = [
  ...['lib', 'app', 'scripts', 'components'].flatMap((d) => sourceFiles(join(ROOT, d))),
  join(ROOT, 'instrumentation.ts'),
  join(ROOT, 'instrumentation-node.ts'),
];

test('every DOORWATCH_ name the code uses is a setting in the schema', () => {
  const known = new Set<string>(SETTING_NAMES);
  const unknown = new Set<string>();
  for (const file of APP_SOURCES) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bDOORWATCH_[A-Z0-9_]*[A-Z0-9]\b/g))
      if (!known.has(m[0])) unknown.add(`${m[0]} (${file.slice(ROOT.length + 1)})`);
  }
  assert.deepEqual([...unknown], []);
});

test('nothing outside lib/config reads a setting from process.env', () => {
  // Allowed: passing the environment on to a child process, Next's own NEXT_RUNTIME and NODE_ENV,
  // setting NEXT_TELEMETRY_DISABLED, and the benchmark scripts' own knobs (BENCH_*).
  const allowed =
    /\.\.\.process\.env\b|env: process\.env\b|process\.env\.NEXT_RUNTIME\b|process\.env\.NODE_ENV\b|process\.env as \{ NODE_ENV\?: string \}\)\.NODE_ENV = |process\.env\.NEXT_TELEMETRY_DISABLED = |process\.env\.BENCH_[A-Z_]+/g;
  const reads: string[] = [];
  for (const file of APP_SOURCES) {
    if (file.startsWith(join(ROOT, 'lib', 'config'))) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/process\.env\b/.test(line.replace(allowed, '')) && !/^\s*(\/\/|\*|\/\*)/.test(line))
          reads.push(`${file.slice(ROOT.length + 1)}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(reads, []);
});

test('npm start stops on bad settings, one line per bad value, before it builds, migrates or serves', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: 'mysql://root:hunter2@db/x',
      DOORWATCH_PG_POOL_SIZE: '0',
      DOORWATCH_RETENTION_DAYS: 'forever',
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.equal(r.stdout, '', 'nothing ran before the check');
  assert.deepEqual(r.stderr.trim().split('\n'), [
    'doorwatch start failed: 3 settings are invalid:',
    '  DATABASE_URL: must start with file: (SQLite) or postgresql:// (PostgreSQL) (got "mysql:...")',
    '  DOORWATCH_RETENTION_DAYS: must be a whole number >= 0 (got "forever")',
    '  DOORWATCH_PG_POOL_SIZE: must be a whole number from 1 to 1000 (got "0")',
  ]);
});
