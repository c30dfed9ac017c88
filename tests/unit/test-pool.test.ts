// npm test names a test file whose process outlives its tests (a forgotten timer kept one file alive
// 60 s per run): the measure is checked on real runs of test files, one with a lingering timer.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { outsideTestsMs, runPool, runProcess } from '../../scripts/test-pool.mjs';

const dir = mkdtempSync(join(tmpdir(), 'doorwatch-test-pool-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function runFile(name: string, body: string): { out: string; ms: number } {
  const file = join(dir, name);
  writeFileSync(file, `const { test } = require('node:test');\n${body}\n`);
  const started = Date.now();
  // Run as npm test runs a file: as a program with the spec reporter, not under `--test`. Without this
  // runner's NODE_TEST_CONTEXT it prints its own spec report.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const r = spawnSync(process.execPath, ['--test-reporter=spec', file], { encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  return { out: r.stdout + r.stderr, ms: Date.now() - started };
}

test('a timer left running after the last test counts outside the tests; time inside tests does not', () => {
  const busy = runFile('busy.test.cjs', `test('waits 1.5 s', () => new Promise((r) => setTimeout(r, 1500)));`);
  const lingering = runFile(
    'lingering.test.cjs',
    `test('starts a 3 s timer and returns', () => { setTimeout(() => {}, 3000); });\ntest('a second test', () => {});`,
  );
  // Process start-up counts as outside too and grows with the machine's load (2.2 s at load 21), so
  // the check is that the 1.5 s inside the test is not counted, not that the rest is small.
  assert.ok(busy.ms - outsideTestsMs(busy) >= 1450, `busy: ${outsideTestsMs(busy)} ms of ${busy.ms} outside its tests`);
  assert.ok(outsideTestsMs(lingering) >= 2900, `lingering: ${outsideTestsMs(lingering)} ms of ${lingering.ms} outside its tests`);
});

test('suites count once (their nested tests are inside them); skipped tests count as lines too', () => {
  const out = [
    '▶ versions',
    '  ✔ lists both (120.5ms)',
    '  ✔ compares (80ms)',
    '✔ versions (201.25ms)',
    '﹣ needs PostgreSQL (0.2ms) # SKIP',
    '✖ fails (300ms)',
    'ℹ duration_ms 1000',
  ].join('\n');
  assert.equal(Math.round(outsideTestsMs({ out, ms: 1000 })), Math.round(1000 - 201.25 - 0.2 - 300));
  assert.equal(outsideTestsMs({ out: '', ms: 0 }), 0);
});

// The hang bound: a pool that gave the beside job a slot never starts the second job.
test(
  'a beside job (the checks) takes no slot: with one slot, it runs next to a slotted job, and the next slotted job waits',
  { timeout: 10_000 },
  async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const job = (key: string, extra: { beside?: boolean; estimate?: number } = {}) => ({
      key,
      ready: Promise.resolve(),
      estimate: 1,
      ...extra,
      run: async () => {
        started.push(key);
        await gate;
        return key;
      },
    });
    const done: string[] = [];
    const pool = runPool([job('a', { estimate: 2 }), job('b'), job('check', { beside: true, estimate: Infinity })], 1, (j) =>
      done.push(j.key),
    );
    while (started.length < 2) await new Promise((r) => setImmediate(r));
    assert.deepEqual([...started].sort(), ['a', 'check']);
    release();
    const results = await pool;
    assert.deepEqual([...results.keys()].sort(), ['a', 'b', 'check']);
    assert.deepEqual(started, ['check', 'a', 'b']);
    assert.equal(done.length, 3);
  },
);

test(
  'runProcess runs a niced job at that niceness',
  { skip: process.platform !== 'linux' && 'nice is read from ps on Linux' },
  async () => {
    const r = await runProcess('/bin/sh', ['-c', 'ps -o ni= -p $$'], { cwd: process.cwd(), env: process.env, nice: 7 });
    assert.equal(r.code, 0, r.out);
    assert.equal(r.out.trim(), '7');
  },
);
