// Builds the workspace packages under packages/ (tsc → dist/) that the app, the simulator and
// the tests import through node_modules. Runs at `npm install`/`npm ci` (postinstall), before
// the typecheck in `npm test`, and before `next build` in ensure-build.mjs; a build is ~2 s.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function buildPackages() {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    const tsconfig = join(root, 'packages', name, 'tsconfig.json');
    if (existsSync(tsconfig)) execFileSync(process.execPath, [tsc, '-p', tsconfig], { cwd: root, stdio: 'inherit' });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildPackages();
