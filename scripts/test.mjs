// npm test: every suite, in order, none skipped silently. Prints one closing line
// "N passed, N failed" and exits non-zero if any suite failed or could not run.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './ensure-build.mjs';
import { buildPackages } from './build-packages.mjs';
import { checkPrerequisites } from './test-prerequisites.mjs';
import { startTestCluster } from './test-postgres.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.CHECKPOINT_DISABLE = '1';

const SUITES = [
  { name: 'unit', dir: 'tests/unit', needs: ['promtool'] },
  // The integration suite runs on both databases (DOORWATCH_TEST_DATABASE, tests/support/test-database.ts).
  {
    name: 'integration',
    label: 'integration (sqlite)',
    dir: 'tests/integration',
    needs: ['build', 'promtool'],
    env: { DOORWATCH_TEST_DATABASE: 'sqlite' },
  },
  {
    name: 'integration',
    label: 'integration (postgresql)',
    dir: 'tests/integration',
    needs: ['build', 'postgresql', 'promtool'],
    env: { DOORWATCH_TEST_DATABASE: 'postgresql' },
  },
  { name: 'browser', dir: 'tests/browser', needs: ['build', 'chromium'] },
];

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

function runSuite(suite, files, extraEnv = {}) {
  return new Promise((resolve) => {
    const args = ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files];
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...suite.env, ...extraEnv },
    });
    // The whole output is kept: the spec reporter lists failures again after its summary lines.
    let out = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      out += chunk.toString();
    });
    child.on('exit', (code) => {
      const count = (label) => Number([...out.matchAll(new RegExp(`^ℹ ${label} (\\d+)$`, 'gm'))].at(-1)?.[1] ?? 0);
      resolve({ code, pass: count('pass'), fail: count('fail'), skipped: count('skipped') + count('todo'), cancelled: count('cancelled') });
    });
  });
}

async function main() {
  const only = process.argv.slice(2);
  const selected = only.length ? SUITES.filter((s) => only.includes(s.name)) : SUITES;
  const needs = new Set(selected.flatMap((s) => s.needs ?? []));
  const problems = checkPrerequisites(needs);
  if (problems.length) {
    console.error('npm test cannot run every suite on this machine:');
    for (const p of problems) console.error(`  - ${p}`);
    console.error('0 passed, 1 failed');
    process.exit(1);
  }
  mkdirSync(join(root, 'test-output'), { recursive: true });
  execFileSync(process.execPath, [join(root, 'scripts/prisma-generate.mjs'), '--check'], { stdio: 'inherit' });
  // The app, the simulator and the tests import the workspace packages' built dist/.
  buildPackages();
  console.log('\n== typecheck (tsc --noEmit)');
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', root], { stdio: 'inherit', cwd: root });
  console.log('\n== lint (eslint)');
  execFileSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings', '0', '.'], {
    stdio: 'inherit',
    cwd: root,
  });
  console.log('\n== dead code (knip: unused files, exports, dependencies)');
  execFileSync(process.execPath, [join(root, 'node_modules/knip/bin/knip.js'), '--no-progress'], { stdio: 'inherit', cwd: root });
  console.log('\n== format (prettier --check)');
  execFileSync(process.execPath, [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', '.'], {
    stdio: 'inherit',
    cwd: root,
  });
  if (selected.some((s) => s.needs?.includes('build'))) ensureBuild();

  let pass = 0,
    fail = 0,
    skipped = 0;
  let cluster = null;
  const stopCluster = () => {
    cluster?.stop();
    cluster = null;
  };
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.once(sig, () => {
      stopCluster();
      process.exit(130);
    });
  try {
    for (const suite of selected) {
      const label = suite.label ?? suite.name;
      const files = testFiles(suite.dir);
      console.log(`\n== ${label}: ${files.length} file(s)`);
      if (files.length === 0) {
        console.log(`   (no ${suite.name} tests yet)`);
        continue;
      }
      const extraEnv = {};
      if (suite.needs?.includes('postgresql')) {
        cluster ??= await startTestCluster();
        console.log(
          cluster.started
            ? `   PostgreSQL: throwaway cluster at ${cluster.url}`
            : `   PostgreSQL: DOORWATCH_TEST_PG_URL (${cluster.url.replace(/:[^:@/]*@/, ':***@')})`,
        );
        extraEnv.DOORWATCH_TEST_PG_URL = cluster.url;
      }
      const started = Date.now();
      const r = await runSuite(suite, files, extraEnv);
      pass += r.pass;
      fail += r.fail + r.cancelled;
      skipped += r.skipped;
      if (r.code !== 0 && r.fail + r.cancelled === 0) {
        console.error(`suite ${label} exited with ${r.code}`);
        fail += 1;
      }
      console.log(
        `== ${label}: ${r.pass} passed, ${r.fail} failed${r.skipped ? `, ${r.skipped} skipped` : ''} (${Math.round((Date.now() - started) / 1000)} s)`,
      );
    }
  } finally {
    stopCluster();
  }
  console.log(`\n${pass} passed, ${fail} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(fail > 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
