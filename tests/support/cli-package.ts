// @doorwatch/cli as a user gets it: bundled (scripts/build-packages.mjs cli) into a copy of the
// package's folder, `npm pack`ed there, and installed from the tarball into a fresh project, offline.
// Tests run the installed `doorwatch` bin, with an environment of its own (no DOORWATCH_* of ours).
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../..');
// Bounds each child process; a hang fails the test instead of stalling CI.
const STEP_TIMEOUT_MS = 120_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InstalledCli {
  /** The project the tarball was installed into; its HOME and XDG_CONFIG_HOME live under it. */
  dir: string;
  /** The files of the packed tarball. */
  packed: string[];
  /** Runs `doorwatch ARGS` to its end (bounded), with `env` over a clean environment. */
  run(args: readonly string[], env?: Record<string, string>): Promise<CliResult>;
  /** Starts `doorwatch ARGS` and leaves it running (tail). */
  spawn(args: readonly string[], env?: Record<string, string>): ChildProcessWithoutNullStreams;
  cleanup(): void;
}

export async function installPackedCli(): Promise<InstalledCli> {
  const dir = mkdtempSync(join(tmpdir(), 'doorwatch-cli-'));
  const copy = join(dir, 'cli');
  cpSync(join(REPO, 'packages/cli'), copy, { recursive: true, filter: (src) => !/[/\\](dist|node_modules)$/.test(src) });
  await run(process.execPath, [join(REPO, 'scripts/build-packages.mjs'), 'cli', join(copy, 'dist/doorwatch.mjs')], {
    timeout: STEP_TIMEOUT_MS,
  });
  // The bundle is built above (prepack would build into the checkout's own folder).
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: copy,
    timeout: STEP_TIMEOUT_MS,
  });
  const [{ filename, files }] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'ops', private: true, dependencies: { '@doorwatch/cli': `file:../${filename}` } }),
  );
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, timeout: STEP_TIMEOUT_MS });
  const installed = JSON.parse(readFileSync(join(project, 'node_modules/@doorwatch/cli/package.json'), 'utf8')) as {
    dependencies?: object;
  };
  assert.equal(installed.dependencies, undefined, 'the CLI installs with no runtime dependencies');
  const bin = join(project, 'node_modules/.bin/doorwatch');
  const home = join(dir, 'home');
  mkdirSync(home);
  // Next's types make NODE_ENV a required key of ProcessEnv; the CLI does not read it.
  const envOf = (env: Record<string, string>) =>
    ({ PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...env }) as unknown as NodeJS.ProcessEnv;
  return {
    dir: project,
    packed: files.map((f) => f.path).sort(),
    async run(args, env = {}) {
      try {
        const { stdout, stderr } = await run(bin, [...args], { env: envOf(env), timeout: STEP_TIMEOUT_MS });
        return { code: 0, stdout, stderr };
      } catch (err) {
        const e = err as { code?: number | string; stdout?: string; stderr?: string; killed?: boolean };
        if (typeof e.code !== 'number') throw err;
        return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
      }
    },
    spawn: (args, env = {}) => spawn(bin, [...args], { env: envOf(env), stdio: 'pipe' }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Lines of a running process's stdout, awaited one by one. */
export function lineReader(child: ChildProcessWithoutNullStreams): {
  next(what: string, timeoutMs?: number): Promise<string>;
  all: string[];
} {
  const all: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  const queued: string[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      all.push(line);
      const w = waiting.shift();
      if (w) w(line);
      else queued.push(line);
    }
  });
  return {
    all,
    next(what, timeoutMs = 60_000) {
      const ready = queued.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      return new Promise((resolveLine, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line (${what}) within ${timeoutMs} ms; so far: ${all.join('\n')}`)), timeoutMs);
        waiting.push((line) => {
          clearTimeout(timer);
          resolveLine(line);
        });
      });
    },
  };
}
