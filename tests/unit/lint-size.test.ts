// The size rule of eslint.config.mjs (no hand-written file over 400 lines, no function over 150,
// tests and generated code aside) can fail: planted snippets, linted with the project's own
// config, are refused one line past each limit and accepted at it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { plantedLint as eslint, ROOT } from '../support/planted-lint';

/** A module of `lines` lines (each a statement, so no rule but the size rules has anything to say). */
const fileOf = (lines: number) => Array.from({ length: lines }, (_, i) => `export const planted${i} = ${i};`).join('\n') + '\n';

/** A module holding one function of exactly `lines` lines, its signature and closing brace included. */
const functionOf = (lines: number) =>
  [
    'export function planted(): number {',
    '  let n = 0;',
    ...Array.from({ length: lines - 4 }, (_, i) => `  n += ${i};`),
    '  return n;',
    '}',
  ].join('\n') + '\n';

async function sizeProblems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  const fatal = result.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal, [], 'the planted file must parse');
  return result.messages.filter((m) => m.ruleId === 'max-lines' || m.ruleId === 'max-lines-per-function').map((m) => m.message);
}

test('a file of 401 lines fails the lint; one of 400 passes', async () => {
  const over = await sizeProblems(fileOf(401), 'lib/ui/planted-oversized.mjs');
  assert.equal(over.length, 1, over.join('\n'));
  assert.match(over[0], /too many lines \(401\)\. Maximum allowed is 400/);
  assert.deepEqual(await sizeProblems(fileOf(400), 'lib/ui/planted-oversized.mjs'), []);
});

test('a function of 151 lines fails the lint; one of 150 passes', async () => {
  const over = await sizeProblems(functionOf(151), 'components/planted-function.mjs');
  assert.equal(over.length, 1, over.join('\n'));
  assert.match(over[0], /Function 'planted' has too many lines \(151\)\. Maximum allowed is 150/);
  assert.deepEqual(await sizeProblems(functionOf(150), 'components/planted-function.mjs'), []);
});

test('the rule covers TypeScript sources, and tests are exempt', async () => {
  assert.equal((await sizeProblems(fileOf(401), 'scripts/planted-oversized.ts')).length, 1);
  assert.equal((await sizeProblems(functionOf(151), 'components/planted-function.tsx')).length, 1);
  assert.deepEqual(await sizeProblems(fileOf(401), 'tests/unit/planted-oversized.ts'), []);
});
