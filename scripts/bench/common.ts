// Shared helpers for the benchmarks: starting the built app on loopback with its own
// database, PostgreSQL scratch databases, percentiles, machine load (peak RSS sampling: process-tree.ts).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { openDb } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { provisionServersFromEnv } from '@/lib/store/servers/server-registry';
import { ensureBootstrapAdmin } from '@/lib/auth/bootstrap-admin';
import { childPids, readCpuSeconds, treeSampler, type TreeMemory } from './process-tree';

export const ROOT = join(__dirname, '..', '..');
export const ADMIN_TOKEN = 'dw_test_admin_token_0123456789abcdef';
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface Args {
  json: boolean;
  flags: Map<string, string>;
}

export function parseArgs(argv: string[]): Args {
  const flags = new Map<string, string>();
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags.set(a.slice(2), argv[++i]);
      else flags.set(a.slice(2), 'true');
    }
  }
  return { json, flags };
}

export const num = (args: Args, name: string, dflt: number, { allowZero = false } = {}) => {
  const v = args.flags.get(name);
  if (v === undefined) return dflt;
  const n = Number(v.replace(/_/g, ''));
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !allowZero))
    throw new Error(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  return n;
};

export function log(...parts: unknown[]) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${parts.join(' ')}\n`);
}

export function machine() {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

export function latencySummary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: round(percentile(s, 50)), p95: round(percentile(s, 95)), max: round(s[s.length - 1] ?? NaN) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------- databases

export async function pgAdmin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export function pgUrl(database: string): string {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function createPgDatabase(name: string): Promise<string> {
  if (!/^dw_bench_[a-z0-9_]+$/.test(name)) throw new Error(`refusing database name ${name}`);
  await pgAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  return pgUrl(name);
}

export async function dropPgDatabase(name: string): Promise<void> {
  if (!/^dw_bench_[a-z0-9_]+$/.test(name)) throw new Error(`refusing database name ${name}`);
  await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export function tempSqliteUrl(): { url: string; dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'doorwatch-bench-'));
  const file = join(dir, 'doorwatch.db');
  return { url: `file:${file}`, dir, file };
}

/** Migrates a database (the app's own runner; `root` holds prisma/) and provisions servers + the bootstrap admin. */
export async function prepareDatabase(
  databaseUrl: string,
  servers: readonly { name: string; secret: string }[] = [],
  root = ROOT,
): Promise<void> {
  const config = readDatabaseConfig({ DATABASE_URL: databaseUrl });
  await runMigrations(config, root);
  const db = openDb(config);
  try {
    if (servers.length) await provisionServersFromEnv(db, servers.map((s) => `${s.name}=${s.secret}`).join(','));
    await ensureBootstrapAdmin(db, { DOORWATCH_ADMIN_TOKEN: ADMIN_TOKEN });
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------- the app

export interface BenchApp {
  url: string;
  pid: number;
  output(): string;
  /** Peak resident set (kB) of the whole process tree so far: the sum of every descendant's VmRSS, sampled. */
  peakRssKb(): number;
  /** The tree's sampled peak, the sum of each process's own peak (VmHWM, an upper bound) and the process list. */
  memory(): TreeMemory;
  /** CPU seconds (user + system) used so far by the server process and its children. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** Which build is served, and whether it matches the sources in the tree right now. */
export function buildInfo(): { buildId: string; fresh: boolean | null } {
  const idFile = join(snapshot ?? ROOT, '.next', 'BUILD_ID');
  if (!existsSync(idFile)) throw new Error('no Next.js build: run `npm run build` (or `npm start` once) first');
  const buildId = readFileSync(idFile, 'utf8').trim();
  let fresh: boolean | null = null;
  try {
    const want = execFileSync(
      process.execPath,
      ['-e', "import('./scripts/ensure-build.mjs').then(m=>process.stdout.write(m.sourceHash()))"],
      { cwd: ROOT, encoding: 'utf8' },
    );
    fresh = readFileSync(join(snapshot ?? ROOT, '.next', 'doorwatch-source-hash'), 'utf8') === want;
  } catch {
    fresh = null;
  }
  return { buildId, fresh };
}

let snapshot: string | null = null;

/**
 * A private copy of the current build: colleagues rebuild .next in the shared tree while the
 * benchmarks run, and `next start` fails (or serves half a build) when that happens under it.
 * The copy holds .next (without its cache) and symlinks to everything else.
 */
export async function appDir(): Promise<string> {
  if (process.env.BENCH_APP_DIR) return process.env.BENCH_APP_DIR;
  if (snapshot) return snapshot;
  const dir = mkdtempSync(join(tmpdir(), 'doorwatch-bench-app-'));
  for (let attempt = 0; ; attempt++) {
    const id = join(ROOT, '.next', 'BUILD_ID');
    if (existsSync(id)) {
      const before = readFileSync(id, 'utf8');
      rmSync(join(dir, '.next'), { recursive: true, force: true });
      try {
        cpSync(join(ROOT, '.next'), join(dir, '.next'), {
          recursive: true,
          filter: (src) => !src.includes(`${join(ROOT, '.next', 'cache')}`),
        });
        if (existsSync(id) && readFileSync(id, 'utf8') === before && existsSync(join(dir, '.next', 'BUILD_ID'))) break;
      } catch {
        /* build in progress: files vanished while copying */
      }
    }
    if (attempt > 120) throw new Error('no stable Next.js build in .next (run npm run build)');
    await new Promise((r) => setTimeout(r, 1000));
  }
  for (const name of readdirSync(ROOT)) if (name !== '.next') symlinkSync(join(ROOT, name), join(dir, name));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  snapshot = dir;
  return dir;
}

/**
 * How the app is started. `npm-start` (the ingest bench's default) runs `npm start` itself in the build snapshot, so
 * memory and CPU cover everything `npm start` runs (npm, the shell, the start script and the server).
 * It needs a build that matches the sources, or the start script would rebuild .next first.
 * `next-start` runs `next start` of the existing build directly (the figures before issue 14).
 * `tsx-start` runs the same start script the way `npm start` did before it was compiled (npm, the tsx CLI,
 * a node child with tsx's loader, its esbuild service), for side-by-side memory comparisons.
 */
export type LaunchMode = 'npm-start' | 'next-start' | 'tsx-start';
const LAUNCH_MODES: readonly LaunchMode[] = ['npm-start', 'next-start', 'tsx-start'];
// The old single-process start: prepare (its exit skipped), then serve, in the tsx-loaded process.
const TSX_START =
  "const s = require('./scripts/start.ts'); const exit = process.exit; process.exit = (c) => { process.exit = exit; if (c) exit(c); else s.serve(); }; s.prepare({ ensureBuild() {} });";

export function launchMode(args: Args, dflt: LaunchMode): LaunchMode {
  const mode = args.flags.get('launch') ?? dflt;
  if (!LAUNCH_MODES.includes(mode as LaunchMode)) throw new Error(`--launch must be one of ${LAUNCH_MODES.join(', ')}`);
  return mode as LaunchMode;
}

/**
 * Starts the existing build on a free loopback port, in its own process group (the bench migrates
 * and provisions the database itself; `npm start` finds nothing left to apply).
 */
export async function startApp(
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
  nodeArgs: string[] = [],
  launch: LaunchMode = 'next-start',
): Promise<BenchApp> {
  const port = await freePort();
  if (launch !== 'next-start' && buildInfo().fresh !== true)
    throw new Error('the build does not match the sources: run `npm run build` first (npm start would rebuild it)');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NEXT_TELEMETRY_DISABLED: '1',
    DOORWATCH_ADMIN_TOKEN: ADMIN_TOKEN,
    // Benchmarks measure throughput, not the per-server limiter.
    DOORWATCH_INGEST_RATE: '10000000',
    DOORWATCH_INGEST_BURST: '10000000',
    ...extraEnv,
  };
  // Under npm, node flags reach the server through NODE_OPTIONS (npm itself gets them too). Node refuses
  // some there (--cpu-prof on Node 20): then npm start's own command runs without npm, the flags on its
  // command line (only the serving process takes them; its prepare child starts without them).
  const refused = nodeArgs.filter((a) => !process.allowedNodeEnvironmentFlags.has(a.split('=')[0]));
  const direct = launch === 'npm-start' && refused.length > 0;
  if (launch !== 'next-start' && nodeArgs.length && !direct) env.NODE_OPTIONS = [env.NODE_OPTIONS, ...nodeArgs].filter(Boolean).join(' ');
  if (direct) env.MALLOC_ARENA_MAX ??= '2'; // as package.json's start script sets it
  let out = '';
  const cwd = await appDir();
  const [command, argv] = direct
    ? [process.execPath, [...nodeArgs, join(cwd, 'scripts/start.mjs')]]
    : launch === 'npm-start'
      ? ['npm', ['start']]
      : launch === 'tsx-start'
        ? ['npm', ['exec', '--offline', '--', 'tsx', '--eval', TSX_START]]
        : [process.execPath, [...nodeArgs, join(cwd, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1']];
  const child: ChildProcess = spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const sampler = treeSampler(child.pid!);
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${launch} exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      sampler.stop();
      process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`app not healthy within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    output: () => out,
    peakRssKb: () => sampler.peakKb(),
    memory: () => sampler.memory(),
    cpuSeconds: () => [pid, ...childPids(pid)].reduce((s, p) => s + readCpuSeconds(p), 0),
    async stop() {
      sampler.stop();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function cleanupSqlite(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
}

/**
 * A scratch folder holding the project's PostgreSQL migrations up to (not including) `name`:
 * a database migrated from it is an installation from before that migration.
 */
export function migrationsRootBefore(name: string, provider: 'sqlite' | 'postgresql' = 'postgresql'): string {
  const root = mkdtempSync(join(tmpdir(), 'doorwatch-migrations-'));
  const from = join(ROOT, 'prisma', provider, 'migrations');
  const to = join(root, 'prisma', provider, 'migrations');
  cpSync(from, to, { recursive: true, filter: (src) => !src.includes(name) });
  return root;
}
