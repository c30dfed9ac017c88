// npm test's prerequisite check: installs missing Debian packages when it can (root with apt-get),
// otherwise names exactly what to install. The system calls are injected, so nothing is installed here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkPrerequisites, installPlan, nodeSupported, type PrerequisiteSystem } from '../../scripts/test-prerequisites.mjs';

function fakeSystem(opts: { root: boolean; apt: boolean; installWorks?: boolean; pgUrl?: string }) {
  const installed = new Set<string>();
  const runs: string[] = [];
  const logs: string[] = [];
  const sys: PrerequisiteSystem = {
    chromiumPath: '/usr/bin/chromium',
    env: opts.pgUrl ? { DOORWATCH_TEST_PG_URL: opts.pgUrl } : {},
    nodeVersion: '20.20.2',
    exists: (p) => p === '/usr/bin/chromium' && installed.has('chromium'),
    findPostgresBin: () => (installed.has('postgresql') ? '/usr/lib/postgresql/15/bin' : null),
    findFaketimeLibrary: () => (installed.has('libfaketime') ? '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1' : null),
    isRoot: () => opts.root,
    hasApt: () => opts.apt,
    hasCommand: (name) => (name === 'promtool' || name === 'prometheus') && installed.has('prometheus'),
    log: (line) => logs.push(line),
    run: (cmd, args) => {
      runs.push(`${cmd} ${args.join(' ')}`);
      if (args[0] === 'install' && opts.installWorks !== false) for (const a of args.slice(1)) if (!a.startsWith('-')) installed.add(a);
      return null;
    },
  };
  return { sys, runs, logs };
}

const both = new Set(['build', 'chromium', 'postgresql']);

test('as root with apt-get: installs Chromium and PostgreSQL, says so, and then has no problems', () => {
  const { sys, runs, logs } = fakeSystem({ root: true, apt: true });
  assert.deepEqual(checkPrerequisites(both, sys), []);
  assert.deepEqual(runs, ['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core postgresql']);
  assert.match(logs.join('\n'), /installing chromium fonts-dejavu-core postgresql with apt-get/);
});

test('not root: installs nothing and names the exact apt-get command per missing piece', () => {
  const { sys, runs } = fakeSystem({ root: false, apt: true });
  const problems = checkPrerequisites(both, sys);
  assert.deepEqual(runs, []);
  assert.equal(problems.length, 2);
  assert.match(problems[0], /Chromium at \/usr\/bin\/chromium.*apt-get install -y chromium fonts-dejavu-core\).*not running as root/);
  assert.match(problems[1], /initdb and pg_ctl.*apt-get install -y postgresql\).*not running as root/);
});

test('root without apt-get: says apt-get is missing instead of trying', () => {
  const { sys, runs } = fakeSystem({ root: true, apt: false });
  const problems = checkPrerequisites(new Set(['chromium']), sys);
  assert.deepEqual(runs, []);
  assert.equal(problems.length, 1);
  assert.match(problems[0], /apt-get install -y chromium fonts-dejavu-core.*apt-get is not available/);
});

test('an install that does not produce the binary is a failure, not a skip', () => {
  const { sys } = fakeSystem({ root: true, apt: true, installWorks: false });
  const problems = checkPrerequisites(new Set(['chromium']), sys);
  assert.deepEqual(problems, ['still missing after apt-get install: Chromium at /usr/bin/chromium (browser tests)']);
});

test('a configured PostgreSQL URL or a unit-only run needs no packages', () => {
  const { sys, runs } = fakeSystem({ root: true, apt: true, pgUrl: 'postgresql://postgres@127.0.0.1:5432/postgres' });
  assert.deepEqual(checkPrerequisites(new Set(['build', 'postgresql']), sys), []);
  assert.deepEqual(checkPrerequisites(new Set(), sys), []);
  assert.deepEqual(runs, []);
  assert.deepEqual(installPlan([], { isRoot: false, hasApt: false }), { commands: [], problems: [] });
});

test('promtool comes from the Debian package prometheus, for the unit and integration suites', () => {
  const { sys, runs } = fakeSystem({ root: true, apt: true });
  assert.deepEqual(checkPrerequisites(new Set(['promtool']), sys), []);
  assert.deepEqual(runs, ['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends prometheus']);
  const notRoot = fakeSystem({ root: false, apt: true });
  assert.match(checkPrerequisites(new Set(['promtool']), notRoot.sys)[0], /promtool.*apt-get install -y prometheus/);
  const runner = readFileSync(new URL('../../scripts/test.mjs', import.meta.url), 'utf8');
  assert.match(runner, /name: 'unit', dir: 'tests\/unit', needs: \['promtool'\]/);
});

test('libfaketime (the clock-step test) comes from the Debian package libfaketime, for both integration runs', () => {
  const { sys, runs } = fakeSystem({ root: true, apt: true });
  assert.deepEqual(checkPrerequisites(new Set(['faketime']), sys), []);
  assert.deepEqual(runs, ['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends libfaketime']);
  const notRoot = fakeSystem({ root: false, apt: true });
  assert.match(checkPrerequisites(new Set(['faketime']), notRoot.sys)[0], /libfaketime.*apt-get install -y libfaketime/);
  const runner = readFileSync(new URL('../../scripts/test.mjs', import.meta.url), 'utf8');
  assert.equal(runner.match(/dir: 'tests\/integration',\n\s+needs: \[[^\]]*'faketime'/g)?.length, 2);
});

test('Node versions follow package.json engines', () => {
  const engines = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } })
    .engines.node;
  assert.equal(engines, '^20.19 || ^22.13 || >=24');
  for (const ok of ['20.19.0', '20.20.2', '22.13.0', '24.0.0', '25.1.0']) assert.equal(nodeSupported(ok), true, ok);
  for (const bad of ['20.18.9', '21.7.0', '22.12.0', '23.11.0', '18.20.0']) assert.equal(nodeSupported(bad), false, bad);
});
