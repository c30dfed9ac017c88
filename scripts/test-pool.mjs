// The job pool npm test runs on: each job is one child process (a check, or one test file in its
// own process, run with the spec reporter) with its output kept, at most `limit` at a time, started when its
// prerequisites (the build, the PostgreSQL cluster) are ready. Longest jobs start first (times of
// the last run, test-output/test-durations.json), so the long poles do not finish last.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// GNU time reports the CPU a job and every process it waited for used (app servers, browsers; not
// the shared PostgreSQL cluster): on two cores the sum of those, not the wall time, is what bounds
// how short a run can be, so each job's line and the closing summary show it.
const GNU_TIME = '/usr/bin/time';
const cpuDir = existsSync(GNU_TIME) ? mkdtempSync(join(tmpdir(), 'doorwatch-test-cpu-')) : null;
let cpuFiles = 0;
process.once('exit', () => cpuDir && rmSync(cpuDir, { recursive: true, force: true }));

function readCpu(file) {
  try {
    const m = /(\d+\.\d+) (\d+\.\d+)\s*$/.exec(readFileSync(file, 'utf8'));
    return m ? Number(m[1]) + Number(m[2]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The machine's CPU time so far from /proc/stat's first line, in clock ticks: { busy, iowait, idle }
 * (undefined off Linux). Two readings tell how many cores a run kept busy whoever used them (the
 * PostgreSQL cluster, a browser's orphaned helpers) and how long cores sat idle waiting on the disk.
 */
export function machineCpu() {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { busy: user + nice + system + irq + softirq + steal, iowait, idle };
  } catch {
    return undefined;
  }
}

/** A whole number of at least 1 from `env[name]`, else `fallback`. */
export function jobLimit(name, fallback, env = process.env) {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
  return n;
}

const NICE = '/usr/bin/nice';

/**
 * Runs `command args` in its own process group; resolves { code, out, ms, cpuS } (out = stdout and
 * stderr as they came; cpuS = user + system seconds of it and its waited-for descendants, when known).
 * `nice` (where /usr/bin/nice exists) lowers its CPU priority by that much: it yields the cores to
 * the jobs that are not niced.
 */
export function runProcess(command, args, { cwd, env, timeoutMs, nice = 0 }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const cpuFile = cpuDir ? join(cpuDir, `${++cpuFiles}.txt`) : null;
    const [niced, nicedArgs] = nice && existsSync(NICE) ? [NICE, ['-n', String(nice), command, ...args]] : [command, args];
    const [cmd, argv] = cpuFile ? [GNU_TIME, ['-q', '-f', '%U %S', '-o', cpuFile, niced, ...nicedArgs]] : [niced, nicedArgs];
    const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let timedOut = false;
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          killGroup(child);
        }, timeoutMs)
      : null;
    child.on('error', (err) => (out += `\n${err.message}\n`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      if (timedOut) out += `\n[npm test: stopped after ${Math.round(timeoutMs / 1000)} s without finishing]\n`;
      const cpuS = cpuFile ? readCpu(cpuFile) : undefined;
      resolve({ code: code ?? (signal ? 1 : 0), out, ms: Date.now() - started, cpuS });
    });
  });
}

const running = new Set();
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}
/** Kills every child process group still running (Ctrl+C of npm test). */
export function killAll() {
  for (const child of running) killGroup(child);
}

/**
 * Milliseconds the file's process ran outside its top-level tests (imports, hooks, and above all a
 * timer or socket that keeps the process alive after the last test): a forgotten 60 s timeout cost
 * each run a minute of a job slot. Top-level results are the spec reporter's unindented lines.
 */
export function outsideTestsMs({ out, ms }) {
  const inTests = [...out.matchAll(/^[✔✖﹣] .*\((\d+(?:\.\d+)?)ms\)(?: # .*)?$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  return Math.max(0, ms - inTests);
}
/** Seconds each job took last time, by key. */
/**
 * The last run's times per job; on a clean clone (CI) there is none, so the committed `seed` (a past
 * run's file, refreshed by copying test-output/test-durations.json over it) orders the long poles first.
 */
export function readDurations(file, seed) {
  for (const f of [file, seed]) {
    try {
      if (f && existsSync(f)) return JSON.parse(readFileSync(f, 'utf8'));
    } catch {
      // Unreadable: try the next one.
    }
  }
  return {};
}
export function writeDurations(file, previous, results) {
  const next = { ...previous };
  for (const r of results) if (r.ms !== undefined) next[r.key] = Math.round(r.ms / 100) / 10;
  writeFileSync(file, `${JSON.stringify(next, null, 1)}\n`);
}

/**
 * Runs `jobs` ({ key, ready: Promise, estimate, group?, beside?, run: () => Promise<result> }) at most `limit` at a
 * time and at most `groupLimits[group]` of one group at a time; a bounded group's jobs first, then the
 * longest estimate first among those ready; `onDone(job, result)` as each one ends. A `beside` job starts
 * as soon as it is ready and takes no slot (the checks: niced, they use the cores the others leave idle).
 */
export async function runPool(jobs, limit, onDone, groupLimits = {}) {
  const waiting = [...jobs].sort((a, b) => b.estimate - a.estimate);
  const readyKeys = new Set();
  const results = new Map();
  let active = 0;
  let wake = () => {};
  for (const job of waiting)
    job.ready.then(
      () => {
        readyKeys.add(job.key);
        wake();
      },
      (err) => {
        // A prerequisite failed (the build, the cluster): the job cannot run and counts as failed.
        readyKeys.add(job.key);
        job.blocked = err;
        wake();
      },
    );
  const inFlight = new Set();
  const inGroup = new Map();
  const groupFull = (job) => job.group !== undefined && (inGroup.get(job.group) ?? 0) >= (groupLimits[job.group] ?? Infinity);
  while (waiting.length || inFlight.size) {
    // A bounded group's jobs run few at a time: they are the run's critical path, so they take a free slot first.
    const startable = (j) => readyKeys.has(j.key) && !groupFull(j);
    const beside = waiting.findIndex((j) => j.beside && readyKeys.has(j.key));
    const bounded = waiting.findIndex((j) => !j.beside && startable(j) && groupLimits[j.group] !== undefined);
    const i = beside >= 0 ? beside : active >= limit ? -1 : bounded >= 0 ? bounded : waiting.findIndex((j) => !j.beside && startable(j));
    if (i >= 0) {
      const [job] = waiting.splice(i, 1);
      const slot = job.beside ? 0 : 1;
      active += slot;
      inGroup.set(job.group, (inGroup.get(job.group) ?? 0) + slot);
      const p = (job.blocked ? Promise.resolve({ blocked: job.blocked }) : job.run()).then((result) => {
        active -= slot;
        inGroup.set(job.group, inGroup.get(job.group) - slot);
        inFlight.delete(p);
        results.set(job.key, result);
        onDone(job, result);
        wake();
      });
      inFlight.add(p);
      continue;
    }
    await new Promise((r) => (wake = r));
  }
  return results;
}
