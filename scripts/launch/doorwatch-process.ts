// Starts the real, built Doorwatch the way `npm start` does (migrations, provisioning, then
// Next's handler in the same process) on a free loopback port, waits until /api/health answers, and stops or crashes
// it as a whole. Shared by the test harness, the experiment runner and the benchmarks.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port';

export interface DoorwatchProcess {
  url: string;
  port: number;
  pid: number;
  env: NodeJS.ProcessEnv;
  output(): string;
  /** SIGKILL to the whole process group at once: a crash. */
  crash(): Promise<void>;
  /** SIGTERM, then SIGKILL after 5 s to anything of the group still left. */
  stop(): Promise<void>;
}

export interface DoorwatchProcessOptions {
  /** Merged over process.env; DATABASE_URL should be set by the caller. */
  env: Record<string, string | undefined>;
  timeoutMs?: number;
  /** Keep at most this much of stdout+stderr (the experiment runs for minutes). */
  maxLogChars?: number;
  /** The checkout to run (default this one): the upgrade fixtures start an earlier release's built tree. */
  root?: string;
  /** Listen here instead of on a free port: an instance coming back where open pages expect it. */
  port?: number;
}

const ownRoot = join(__dirname, '..', '..');

export async function startDoorwatchProcess(options: DoorwatchProcessOptions): Promise<DoorwatchProcess> {
  const root = options.root ?? ownRoot;
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = {
    // As `npm start` sets it (package.json): fewer glibc malloc arenas for the server's threads.
    MALLOC_ARENA_MAX: '2',
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    NEXT_TELEMETRY_DISABLED: '1',
    ...options.env,
  };
  const maxLog = options.maxLogChars ?? 1_000_000;
  let log = '';
  // Exactly what `npm start` runs: the compiled start script on plain node (scripts/start.mjs).
  const child: ChildProcess = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: the server and anything it spawns are stopped (or crashed) together.
    detached: true,
  });
  const append = (d: Buffer) => {
    log += d;
    if (log.length > maxLog) log = log.slice(-maxLog);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);

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
    signalGroup('SIGKILL');
  };

  const url = `http://127.0.0.1:${port}`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Doorwatch exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      // Read to the end: a body left unread keeps its response unfinished on the client's connection, and
      // a stop() right after start then waited out the app's 5 s exit fallback (2 of 3 times).
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await ended('SIGKILL');
      throw new Error(`Doorwatch did not become healthy within ${timeoutMs / 1000} s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { url, port, pid: child.pid!, env, output: () => log, crash: () => ended('SIGKILL'), stop: () => ended('SIGTERM') };
}
