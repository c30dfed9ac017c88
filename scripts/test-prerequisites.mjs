// What npm test needs beyond `npm install`, checked up front so a missing piece is a clear
// message instead of a confusing failure (or a silently skipped suite). Missing Debian packages
// (Chromium, the PostgreSQL server, Prometheus's promtool) are installed when we can (root with apt-get, as on CI and
// these machines); otherwise the message says exactly what to install.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { findPostgresBin } from './test-postgres.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * libfaketime's preload library (Debian: /usr/lib/<multiarch>/faketime/libfaketime.so.1), which
 * steps the app's wall clock in tests/integration/clock-step.test.ts; null when not installed.
 */
export function findFaketimeLibrary() {
  let dirs = [];
  try {
    dirs = readdirSync('/usr/lib')
      .filter((d) => d.endsWith('-linux-gnu'))
      .map((d) => `/usr/lib/${d}`);
  } catch {
    // no /usr/lib: not a Linux system libfaketime could run on
  }
  return [...dirs, '/usr/lib64', '/usr/lib'].map((d) => `${d}/faketime/libfaketime.so.1`).find((p) => existsSync(p)) ?? null;
}

/** Node versions package.json's `engines` accepts: ^20.19 || ^22.13 || >=24. */
export function nodeSupported(version) {
  const [major, minor] = version.split('.').map(Number);
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 13) || major >= 24;
}

/** Debian packages a missing piece needs, for the suites in `needs`. */
export function missingPackages(needs, sys) {
  const missing = [];
  if (needs.has('chromium') && !sys.exists(sys.chromiumPath)) {
    missing.push({ what: `Chromium at ${sys.chromiumPath} (browser tests)`, packages: ['chromium', 'fonts-dejavu-core'] });
  }
  if (needs.has('postgresql') && !sys.env.DOORWATCH_TEST_PG_URL && !sys.findPostgresBin()) {
    missing.push({ what: 'PostgreSQL server binaries initdb and pg_ctl (integration run on PostgreSQL)', packages: ['postgresql'] });
  }
  // One Debian package brings both: promtool checks the /metrics text and the rules, the prometheus server
  // scrapes the app in tests/integration/prometheus.test.ts.
  if (needs.has('promtool') && !(sys.hasCommand('promtool') && sys.hasCommand('prometheus'))) {
    missing.push({
      what: 'promtool and prometheus (check the /metrics text and the alert rules, scrape the app)',
      packages: ['prometheus'],
    });
  }
  if (needs.has('faketime') && !sys.findFaketimeLibrary()) {
    missing.push({ what: 'libfaketime (steps the host clock under the app in the clock-step test)', packages: ['libfaketime'] });
  }
  return missing;
}

/** Install with apt-get when running as root and apt-get exists; otherwise the exact thing to run. */
export function installPlan(missing, { isRoot, hasApt }) {
  if (missing.length === 0) return { commands: [], problems: [] };
  const packages = missing.flatMap((m) => m.packages);
  if (isRoot && hasApt) {
    return {
      commands: [
        ['apt-get', ['update', '-qq']],
        ['apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages]],
      ],
      problems: [],
    };
  }
  const why = isRoot ? 'apt-get is not available' : 'not running as root';
  return {
    commands: [],
    problems: missing.map(
      (m) =>
        `missing ${m.what}: install it (Debian/Ubuntu, as root: apt-get install -y ${m.packages.join(' ')}); ` +
        `npm test did not, ${why}. Or set ${m.packages[0] === 'chromium' ? 'CHROMIUM_PATH' : 'DOORWATCH_PG_BIN or DOORWATCH_TEST_PG_URL'}`,
    ),
  };
}

const realSystem = {
  chromiumPath: CHROMIUM_PATH,
  env: process.env,
  exists: existsSync,
  findPostgresBin,
  findFaketimeLibrary,
  isRoot: () => process.getuid?.() === 0,
  hasApt: () => spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0,
  hasCommand: (name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0,
  log: (line) => console.log(line),
  run: (cmd, args) => {
    const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return r.status === 0 ? null : `${cmd} ${args.join(' ')} failed (${r.status ?? r.error?.message})`;
  },
};

/** Problems that stop npm test (empty when every selected suite can run), after installing what it can. */
export function checkPrerequisites(needs, sys = realSystem) {
  const problems = [];
  const node = sys.nodeVersion ?? process.versions.node;
  if (!nodeSupported(node)) problems.push(`Node.js ^20.19, ^22.13 or >=24 is required (found ${node})`);
  const missing = missingPackages(needs, sys);
  const plan = installPlan(missing, { isRoot: sys.isRoot(), hasApt: missing.length > 0 && sys.hasApt() });
  problems.push(...plan.problems);
  if (plan.commands.length) {
    sys.log(
      `npm test: installing ${missing.flatMap((m) => m.packages).join(' ')} with apt-get (missing: ${missing.map((m) => m.what).join('; ')})`,
    );
    for (const [cmd, args] of plan.commands) {
      const failed = sys.run(cmd, args);
      if (failed) return [...problems, `${failed}; install by hand: apt-get install -y ${missing.flatMap((m) => m.packages).join(' ')}`];
    }
    for (const m of missingPackages(needs, sys)) problems.push(`still missing after apt-get install: ${m.what}`);
  }
  return problems;
}
