// `npm run knip` (the dead-code check npm test runs) fails on an export nothing imports. The real
// tree takes tens of seconds to check, so this runs knip on a small project made in a temp folder,
// with the same rule the repository's knip.jsonc sets: an export its own file uses is not dead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const KNIP = join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js');

function runKnip(files: Record<string, string>): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'knip-fixture-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module', main: 'index.ts' }));
    writeFileSync(join(dir, 'knip.json'), JSON.stringify({ ignoreExportsUsedInFile: true }));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const r = spawnSync(process.execPath, [KNIP, '--reporter', 'compact', '--no-progress'], { cwd: dir, encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the repository config keeps the rule the fixtures use', () => {
  assert.match(readFileSync(join(ROOT, 'knip.jsonc'), 'utf8'), /"ignoreExportsUsedInFile": true/);
  assert.match(readFileSync(join(ROOT, 'scripts', 'test.mjs'), 'utf8'), /knip/);
});

test('a planted export nothing imports fails the check and is named', () => {
  const r = runKnip({
    'index.ts': "import { used } from './shapes';\nconsole.log(used());\n",
    'shapes.ts': 'export const used = () => 1;\nexport function plantedDead() {\n  return 2;\n}\nexport type PlantedType = { a: 1 };\n',
  });
  assert.notEqual(r.status, 0, r.out);
  assert.match(r.out, /plantedDead/);
  assert.match(r.out, /PlantedType/);
});

test('the same project passes once every export is used or only used in its own file', () => {
  const r = runKnip({
    'index.ts': "import { used } from './shapes';\nconsole.log(used());\n",
    'shapes.ts': 'export const LIMIT = 2;\nexport const used = () => LIMIT;\n',
  });
  assert.equal(r.status, 0, r.out);
});
