// npm test: every suite, none skipped silently. The checks (tsc, eslint, knip, prettier), the build and
// the test files run side by side, each test file in its own process with its own server, ports,
// database (SQLite file or PostgreSQL database on the throwaway cluster) and browser, at most
// DOORWATCH_TEST_JOBS (default 4) test files at a time, browser files DOORWATCH_TEST_BROWSER_JOBS (default 2)
// of those. The checks start at once beside the pool (no slot) at nice 10: they use the cores the test
// files leave idle. A failing job's whole output is printed when it ends. The closing lines give the
// CPU the run used (the PostgreSQL cluster's server included), the machine's cores busy and the CPU no job counted, then
// "N passed, N failed"; exits non-zero if anything failed or could not run. `npm test unit browser`
// runs only those suites.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildPackages } from './build-packages.mjs';
import { checkPrerequisites } from './test-prerequisites.mjs';
import { startTestCluster } from './test-postgres.mjs';
import { jobLimit, killAll, machineCpu, outsideTestsMs, readDurations, runPool, runProcess, writeDurations } from './test-pool.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.CHECKPOINT_DISABLE = '1';

const SUITES = [
  { name: 'unit', dir: 'tests/unit', needs: ['promtool'], estimate: 10 },
  // The integration suite runs on both databases (DOORWATCH_TEST_DATABASE, tests/support/test-database.ts).
  {
    name: 'integration',
    label: 'integration (sqlite)',
    dir: 'tests/integration',
    needs: ['build', 'promtool', 'faketime'],
    env: { DOORWATCH_TEST_DATABASE: 'sqlite' },
    estimate: 60,
  },
  {
    name: 'integration',
    label: 'integration (postgresql)',
    dir: 'tests/integration',
    needs: ['build', 'postgresql', 'promtool', 'faketime'],
    env: { DOORWATCH_TEST_DATABASE: 'postgresql' },
    estimate: 60,
  },
  // Browser files run few at a time (DOORWATCH_TEST_BROWSER_JOBS) and take a free slot first (runPool), so
  // they do not queue behind every integration file and finish as one long serial tail.
  { name: 'browser', dir: 'tests/browser', needs: ['build', 'chromium'], estimate: 60 },
];

const node = (script) => join(root, script);
const CHECKS = [
  { label: 'typecheck (tsc --noEmit)', args: [node('node_modules/typescript/bin/tsc'), '--noEmit', '-p', root] },
  { label: 'lint (eslint)', args: [node('node_modules/eslint/bin/eslint.js'), '--max-warnings', '0', '.'] },
  { label: 'dead code (knip: unused files, exports, dependencies)', args: [node('node_modules/knip/bin/knip.js'), '--no-progress'] },
  { label: 'format (prettier --check)', args: [node('node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', '.'] },
];
// Jobs at a time: test files mostly wait on servers, databases and timers, so more than the 2 cores
// pays. Browser files are bounded on their own: a page is the one thing that misses its waits when the
// cores are oversubscribed (at 6 jobs a clean-clone run reached load 29 and pages missed 10 s waits).
const DEFAULT_JOBS = 4;
const DEFAULT_BROWSER_JOBS = 2;
// The checks' CPU priority below everything else's (nice, 0-19).
const CHECKS_NICE = 10;
// A test file that runs longer than this has hung: it is stopped and counts as failed.
const FILE_TIMEOUT_MS = Number(process.env.DOORWATCH_TEST_FILE_TIMEOUT_S ?? 1200) * 1000;

function testFiles(dir) {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.test\.tsx?$/.test(name)) out.push(relative(root, p));
    }
  };
  walk(join(root, dir));
  return out;
}

/**
 * A file whose subject brings its own SQLite database whatever DOORWATCH_TEST_DATABASE says (the demo
 * always runs on its embedded default) declares `// npm test: sqlite only` and runs once, in the
 * SQLite pass: a PostgreSQL pass would repeat the same run. Listed at the start, never skipped silently.
 */
const SQLITE_ONLY = /^\/\/ npm test: sqlite only\b/m;
const sqliteOnly = (file) => SQLITE_ONLY.test(readFileSync(join(root, file), 'utf8'));

/** Counts from a spec reporter's summary ("ℹ pass 12"); a non-zero exit without a counted failure is one failure. */
function countTests({ code, out }) {
  const count = (label) => Number([...out.matchAll(new RegExp(`^ℹ ${label} (\\d+)$`, 'gm'))].at(-1)?.[1] ?? 0);
  const fail = count('fail') + count('cancelled');
  return { pass: count('pass'), fail: code !== 0 && fail === 0 ? 1 : fail, skipped: count('skipped') + count('todo') };
}

const OUTSIDE_TESTS_NOTE_MS = 10_000;

const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const cpu = (r) => (r.cpuS === undefined ? '' : `, cpu ${Math.round(r.cpuS)} s`);

let buildCpuS = 0;
/** The build (next build when sources changed) in a child process, so checks and unit tests run meanwhile. */
async function build() {
  const r = await runProcess(process.execPath, [node('scripts/ensure-build.mjs')], { cwd: root, env: process.env });
  console.log(`\n== build: ${r.code === 0 ? 'ok' : 'FAILED'} (${seconds(r.ms)}${cpu(r)})`);
  buildCpuS = r.cpuS ?? 0;
  if (r.code !== 0) {
    process.stdout.write(r.out);
    throw new Error('the build failed (output above)');
  }
}

function jobsFor(selected, { built, cluster }, durations) {
  const jobs = [];
  for (const check of CHECKS)
    jobs.push({
      key: check.label,
      label: check.label,
      ready: Promise.resolve(),
      // Beside the pool from the start, taking no slot: they are quick to fail, and niced they soak up the
      // cores the test files leave idle (waiting on timers, servers, the disk) instead of holding slots.
      beside: true,
      estimate: Infinity,
      run: async () => {
        // Niced: the build (started at the same moment) gates every integration and browser file and the
        // test files have waits to keep; the checks gate nothing and take what is left.
        const r = await runProcess(process.execPath, check.args, { cwd: root, env: process.env, nice: CHECKS_NICE });
        return { ...r, pass: r.code === 0 ? 1 : 0, fail: r.code === 0 ? 0 : 1, skipped: 0 };
      },
    });
  for (const suite of selected) {
    const label = suite.label ?? suite.name;
    const needsPg = suite.needs.includes('postgresql');
    const ready = Promise.all([suite.needs.includes('build') ? built : null, needsPg ? cluster : null]);
    for (const file of testFiles(suite.dir)) {
      if (needsPg && sqliteOnly(file)) continue;
      const key = `${label}: ${file}`;
      jobs.push({
        key,
        suite: label,
        label: needsPg ? `${file} (postgresql)` : suite.env ? `${file} (sqlite)` : file,
        group: suite.name,
        ready,
        estimate: durations[key] ?? suite.estimate,
        run: async () => {
          const env = { ...process.env, ...suite.env, ...(needsPg ? { DOORWATCH_TEST_PG_URL: (await cluster).url } : {}) };
          // The file run as a program, not under `--test`: that runner only spawns the file in a child of its
          // own and relays its report; the child is the same run (same tests, summary and exit code). One
          // process and one tsx loader less per file: an empty test file 0.70 -> 0.52 CPU-s.
          const args = ['--import', 'tsx', '--test-reporter=spec', file];
          const r = await runProcess(process.execPath, args, { cwd: root, env, timeoutMs: FILE_TIMEOUT_MS });
          return { ...r, ...countTests(r) };
        },
      });
    }
  }
  return jobs;
}

function report(job, r) {
  if (r.blocked) {
    console.log(`  not run  ${job.label}: ${r.blocked.message}`);
    return;
  }
  const counts = `${r.pass} passed${r.fail ? `, ${r.fail} failed` : ''}${r.skipped ? `, ${r.skipped} skipped` : ''}`;
  const outside = job.suite ? outsideTestsMs(r) : 0;
  const note = outside >= OUTSIDE_TESTS_NOTE_MS ? `, ${seconds(outside)} outside its tests` : '';
  console.log(`  ${r.fail ? 'FAIL' : 'ok  '}  ${job.label}: ${counts} (${seconds(r.ms)}${cpu(r)}${note})`);
  if (r.fail) {
    console.log(`---- output of ${job.label} ----`);
    process.stdout.write(r.out.endsWith('\n') ? r.out : `${r.out}\n`);
    console.log(`---- end of ${job.label} ----`);
  }
}

function preflight(selected) {
  const needs = new Set(selected.flatMap((s) => s.needs ?? []));
  const problems = checkPrerequisites(needs);
  if (problems.length) {
    console.error('npm test cannot run every suite on this machine:');
    for (const p of problems) console.error(`  - ${p}`);
    console.error('0 passed, 1 failed');
    process.exit(1);
  }
  mkdirSync(join(root, 'test-output'), { recursive: true });
  execFileSync(process.execPath, [node('scripts/prisma-generate.mjs'), '--check'], { stdio: 'inherit' });
  // The app, the simulator, tsc and the tests import the workspace packages' built dist/.
  buildPackages();
}

async function main() {
  const only = process.argv.slice(2);
  const selected = only.length ? SUITES.filter((s) => only.includes(s.name)) : SUITES;
  preflight(selected);
  const limit = jobLimit('DOORWATCH_TEST_JOBS', DEFAULT_JOBS);
  const groupLimits = { browser: jobLimit('DOORWATCH_TEST_BROWSER_JOBS', DEFAULT_BROWSER_JOBS) };
  const started = Date.now();
  const machineAtStart = machineCpu();
  const built = selected.some((s) => s.needs.includes('build')) ? build() : Promise.resolve();
  const cluster = selected.some((s) => s.needs.includes('postgresql')) ? startTestCluster() : null;
  // Both are awaited through the jobs that need them; a failure there fails those jobs, not the run.
  built.catch(() => {});
  cluster?.catch(() => {});
  let stopCluster = () => {};
  let clusterCpuS = () => undefined;
  cluster?.then(
    (c) => {
      stopCluster = () => c.stop();
      clusterCpuS = () => c.cpuSeconds?.();
      console.log(
        c.started
          ? `   PostgreSQL: throwaway cluster at ${c.url}`
          : `   PostgreSQL: DOORWATCH_TEST_PG_URL (${c.url.replace(/:[^:@/]*@/, ':***@')})`,
      );
    },
    () => {},
  );
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.once(sig, () => {
      killAll();
      stopCluster();
      process.exit(130);
    });

  const durationsFile = join(root, 'test-output', 'test-durations.json');
  const durations = readDurations(durationsFile, join(root, 'scripts', 'test-durations.json'));
  const jobs = jobsFor(selected, { built, cluster }, durations);
  if (selected.some((s) => s.needs.includes('postgresql')))
    for (const file of testFiles('tests/integration').filter(sqliteOnly))
      console.log(`   ${file}: SQLite pass only (it declares "npm test: sqlite only": its subject brings its own SQLite database)`);
  console.log(
    `\n== ${jobs.length} jobs (${CHECKS.length} checks, ${jobs.length - CHECKS.length} test files): the checks at once, beside ${limit} test files at a time (DOORWATCH_TEST_JOBS), browser files ${groupLimits.browser} at a time (DOORWATCH_TEST_BROWSER_JOBS)`,
  );
  let results;
  let pgCpuS;
  try {
    results = await runPool(jobs, limit, report, groupLimits);
    pgCpuS = clusterCpuS();
  } finally {
    stopCluster();
  }
  writeDurations(
    durationsFile,
    durations,
    jobs.map((j) => ({ key: j.key, ms: results.get(j.key)?.ms })),
  );

  let pass = 0,
    fail = 0,
    skipped = 0,
    cpuS = buildCpuS + (pgCpuS ?? 0);
  const failed = [];
  const bySuite = new Map();
  for (const job of jobs) {
    const r = results.get(job.key);
    const f = r.blocked ? 1 : r.fail;
    pass += r.pass ?? 0;
    fail += f;
    skipped += r.skipped ?? 0;
    cpuS += r.cpuS ?? 0;
    if (f) failed.push(job.label);
    const suite = job.suite ?? 'checks';
    const s = bySuite.get(suite) ?? { pass: 0, fail: 0, ms: 0, cpuS: 0 };
    bySuite.set(suite, { pass: s.pass + (r.pass ?? 0), fail: s.fail + f, ms: s.ms + (r.ms ?? 0), cpuS: s.cpuS + (r.cpuS ?? 0) });
  }
  console.log('');
  for (const [label, s] of bySuite) console.log(`== ${label}: ${s.pass} passed, ${s.fail} failed (${seconds(s.ms)} in its files${cpu(s)})`);
  if (failed.length) console.log(`\nfailed: ${failed.join(', ')}`);
  // CPU over wall: how many cores the run kept busy (the build and the throwaway PostgreSQL cluster's server included).
  const wallMs = Date.now() - started;
  const pg = pgCpuS === undefined ? '' : `, of which the PostgreSQL cluster ${Math.round(pgCpuS)} s`;
  console.log(
    `wall time ${seconds(wallMs)}, cpu ${Math.round(cpuS)} s${pg} (${(cpuS / (wallMs / 1000)).toFixed(2)} cores busy on average)`,
  );
  // The whole machine meanwhile (anything else running on it included): cores busy, and idle waiting on the disk.
  const machineAtEnd = machineCpu();
  if (machineAtStart && machineAtEnd) {
    const d = (k) => machineAtEnd[k] - machineAtStart[k];
    const ticks = d('busy') + d('iowait') + d('idle');
    const cores = availableParallelism();
    // What no job's figure holds: Chromium's renderers, GPU process and zygotes (never reaped into the browser
    // file's count, ~2/3 of a browser file's CPU: docs/reliability.md, "Browser tests' CPU"), and anything else running.
    const busyCores = (d('busy') / ticks) * cores;
    const busyS = busyCores * (wallMs / 1000);
    console.log(
      `machine: ${busyCores.toFixed(2)} of ${cores} cores busy (${Math.round(busyS)} CPU-s, ${Math.round(Math.max(0, busyS - cpuS))} of them counted by no job: Chromium's renderers, anything else running), ${((d('iowait') / ticks) * cores).toFixed(2)} idle waiting on the disk (/proc/stat)`,
    );
  }
  console.log(`\n${pass} passed, ${fail} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(fail > 0 ? 1 : 0);
}

main().catch((err) => {
  killAll();
  console.error(err instanceof Error ? err.message : err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
