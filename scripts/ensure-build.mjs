// Builds the Next.js app when the sources changed since the last build, so `npm run demo`
// and `npm test` always serve what is in the tree without rebuilding every time.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackages } from './build-packages.mjs';
import { ensureStartBundle } from './compile-start.mjs';
import { sourceHash } from './source-hash.mjs';

export { sourceHash };

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds what `npm start` serves when the sources changed: the start script (compile-start.mjs) and .next. */
export function ensureBuild({ quiet = false, hash = undefined } = {}) {
  const marker = join(root, '.next', 'doorwatch-source-hash');
  const want = hash ?? sourceHash();
  ensureStartBundle(want);
  if (existsSync(join(root, '.next', 'BUILD_ID')) && existsSync(marker) && readFileSync(marker, 'utf8') === want) {
    if (!quiet) console.log('build: up to date');
    return false;
  }
  console.log('build: building the workspace packages and the Next.js app (next build) ...');
  buildPackages();
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/next/dist/bin/next'), 'build'], {
      cwd: root,
      stdio: quiet ? 'pipe' : 'inherit',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
  } catch (err) {
    if (quiet) process.stderr.write(`${err.stdout ?? ''}${err.stderr ?? ''}`);
    throw new Error('next build failed (output above)', { cause: err });
  }
  writeFileSync(marker, want);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) ensureBuild();
