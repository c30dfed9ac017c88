// lib/config/process-state.ts: one value per key for the whole process, shared by every copy of a
// module (Next bundles each route with its own copies; `next dev` re-evaluates edited modules).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE = readFileSync(join(ROOT, 'lib', 'config', 'process-state.ts'), 'utf8');
const DIR = mkdtempSync(join(tmpdir(), 'process-state-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
type ProcessState = typeof import('@/lib/config/process-state');
// The same source at another path is another module copy, as Next's route bundles and a dev reload make.
const copy = (n: number): Promise<ProcessState> => {
  const file = join(DIR, `process-state-${n}.ts`);
  writeFileSync(file, SOURCE);
  return import(pathToFileURL(file).href) as Promise<ProcessState>;
};

test('a singleton is created once and shared by another copy of the module', async () => {
  const [a, b] = [await copy(1), await copy(2)];
  assert.notEqual(a, b, 'two module copies');
  let created = 0;
  const first = a.processSingleton('doorwatchTestSingleton', () => ({ n: ++created }));
  const second = b.processSingleton('doorwatchTestSingleton', () => ({ n: ++created }));
  assert.equal(second, first);
  assert.equal(created, 1);
});

test('null is a decided value, not a reason to create again', async () => {
  const { processSingleton } = await copy(3);
  let calls = 0;
  assert.equal(
    processSingleton('doorwatchTestNone', () => (calls++, null)),
    null,
  );
  assert.equal(
    processSingleton('doorwatchTestNone', () => (calls++, null)),
    null,
  );
  assert.equal(calls, 1);
});

test('a slot is replaced and cleared for every copy at once', async () => {
  const [a, b] = [await copy(4), await copy(5)];
  const sa = a.processSlot<number>('doorwatchTestSlot');
  const sb = b.processSlot<number>('doorwatchTestSlot');
  sa.set(7);
  assert.equal(sb.get(), 7);
  sb.set(undefined);
  assert.equal(sa.get(), undefined);
});

test('no other product module keeps state on globalThis by hand', () => {
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (name === 'generated' || name === 'node_modules') continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && /globalThis\s+as\b/.test(readFileSync(p, 'utf8'))) offenders.push(relative(ROOT, p));
    }
  };
  for (const dir of ['app', 'components', 'lib']) walk(join(ROOT, dir));
  assert.deepEqual(offenders, ['lib/config/process-state.ts']);
});
