// The PostgreSQL cluster the integration suite's PostgreSQL run uses: DOORWATCH_TEST_PG_URL
// when set, else a throwaway cluster started here (initdb + pg_ctl in a temp folder, on a free
// loopback port, as a non-root user) and removed afterwards. Missing binaries are an error
// that says what to install, never a silent skip.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INSTALL_HINT =
  'the PostgreSQL integration run needs PostgreSQL server binaries (initdb, pg_ctl): ' +
  'install them (Debian/Ubuntu: apt-get install postgresql), set DOORWATCH_PG_BIN to their folder, ' +
  'or set DOORWATCH_TEST_PG_URL to a superuser URL of a test cluster (e.g. postgresql://postgres@127.0.0.1:5432/postgres)';

/** Folder holding initdb and pg_ctl, or null. */
export function findPostgresBin() {
  const candidates = [];
  if (process.env.DOORWATCH_PG_BIN) candidates.push(process.env.DOORWATCH_PG_BIN);
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    /* no pg_config */
  }
  for (const base of ['/usr/lib/postgresql', '/usr/local/lib/postgresql']) {
    if (!existsSync(base)) continue;
    const versions = readdirSync(base)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(join(base, v, 'bin'));
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir) candidates.push(dir);
  return candidates.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl'))) ?? null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Clock ticks of one process from /proc/PID/stat: [ppid, its own user+system, its reaped children's]. */
function procTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(f[1]), Number(f[11]) + Number(f[12]), Number(f[13]) + Number(f[14])];
  } catch {
    return null;
  }
}

/**
 * CPU seconds a server's processes have used so far, or undefined where /proc cannot tell (not Linux):
 * the postmaster's own, the backends it has reaped, and its live children (checkpointer, autovacuum, open
 * backends). A daemon, so GNU time around the test files never counts it.
 */
function serverCpuSeconds(data) {
  let pid;
  try {
    pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  const own = procTicks(pid);
  if (!own || !existsSync('/proc')) return undefined;
  let ticks = own[1] + own[2];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const child = procTicks(name);
    if (child && child[0] === pid) ticks += child[1] + child[2];
  }
  return ticks / clockTicks();
}
/** USER_HZ, the unit of /proc's times: 100 on every Linux build that matters; getconf says so where it can. */
function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** { url, stop() }: the configured cluster, or a throwaway one. */
export async function startTestCluster() {
  if (process.env.DOORWATCH_TEST_PG_URL) return { url: process.env.DOORWATCH_TEST_PG_URL, started: false, stop() {} };
  return startThrowawayCluster();
}

/**
 * A throwaway cluster (initdb + pg_ctl in a temp folder, free loopback port, non-root user):
 * { url, started, stop(), pause(), resume(), startReplica() }. pause()/resume() stop and start the
 * server on the same data and port (the fault suite takes the database away mid-load);
 * startReplica() adds a streaming replica of it (pg_basebackup -R -X stream, on another loopback
 * port); stop() stops the replicas and the server and removes everything.
 */
export async function startThrowawayCluster() {
  const bin = findPostgresBin();
  if (!bin) throw new Error(INSTALL_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'doorwatch-pg-'));
  const data = join(dir, 'data');
  // PostgreSQL refuses to run as root: run it as `nobody` with a folder that user owns.
  const asRoot = process.getuid?.() === 0;
  const command = (cmd, args) => (asRoot ? ['runuser', ['-u', 'nobody', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args]);
  const failed = (cmd, status, out) => new Error(`${cmd} failed (${status}): ${(out || '').trim().slice(-800)}`);
  const run = (cmd, args) => {
    const [file, argv] = command(cmd, args);
    const r = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw failed(cmd, r.status ?? r.error?.message, r.stderr || r.stdout);
  };
  // The same, without blocking the caller's event loop (tests keep sending while the server stops).
  const runAsync = (cmd, args) =>
    new Promise((resolve, reject) => {
      const [file, argv] = command(cmd, args);
      execFile(file, argv, { encoding: 'utf8', cwd: dir }, (err, stdout, stderr) =>
        err ? reject(failed(cmd, err.code, stderr || stdout)) : resolve(),
      );
    });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  // Test-only settings: no fsync (a crashed test cluster is thrown away anyway), sockets in our folder.
  const optsFor = (p) =>
    `-c listen_addresses=127.0.0.1 -c port=${p} -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const startArgs = ['start', '-D', data, '-w', '-t', '60', '-s', '-l', join(dir, 'postgres.log'), '-o', optsFor(port)];
  const replicas = [];
  const stopServer = (folder) => {
    try {
      run('pg_ctl', ['stop', '-D', folder, '-m', 'immediate', '-s']);
    } catch {
      /* not running */
    }
  };
  const stop = () => {
    for (const folder of replicas) stopServer(folder);
    stopServer(data);
    rmSync(dir, { recursive: true, force: true });
  };
  /** A hot-standby replica streaming from this cluster: { url, stop() } (stop() keeps its files until the cluster's stop()). */
  const startReplica = async () => {
    const replicaPort = await freePort();
    const folder = join(dir, `replica-${replicas.length + 1}`);
    // -R writes standby.signal and primary_conninfo; -X stream copies the WAL written meanwhile.
    run('pg_basebackup', ['-D', folder, '-R', '-X', 'stream', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '--no-sync']);
    replicas.push(folder);
    run('pg_ctl', ['start', '-D', folder, '-w', '-t', '60', '-s', '-l', `${folder}.log`, '-o', optsFor(replicaPort)]);
    return { url: `postgresql://postgres@127.0.0.1:${replicaPort}/postgres`, stop: () => stopServer(folder) };
  };
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
    run('pg_ctl', startArgs);
  } catch (err) {
    stop();
    throw err;
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    started: true,
    stop,
    cpuSeconds: () => serverCpuSeconds(data),
    // fast: open transactions are rolled back and connections closed, as in a failover or a restart.
    pause: () => runAsync('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-s']),
    resume: () => runAsync('pg_ctl', startArgs),
    startReplica,
  };
}
