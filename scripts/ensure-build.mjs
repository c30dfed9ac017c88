// Builds the Next.js app when the sources changed since the last build, so `npm run demo`
// and `npm test` always serve what is in the tree without rebuilding every time.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackages } from './build-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = [
  'app',
  'components',
  'lib',
  'packages',
  'public',
  'instrumentation.ts',
  'proxy.ts',
  'next.config.js',
  'package-lock.json',
  'tsconfig.json',
];
// packages/*/dist is derived from packages/*/src (rebuilt below), so only sources count.
const SKIP = new Set(['generated', 'node_modules', '.next', 'dist', '__pycache__']);

function walk(path, hash) {
  if (!existsSync(path)) return;
  const st = statSync(path);
  if (st.isDirectory()) {
    for (const name of readdirSync(path).sort()) if (!SKIP.has(name)) walk(join(path, name), hash);
  } else {
    hash.update(path.slice(root.length)).update(readFileSync(path));
  }
}

export function sourceHash() {
  const hash = createHash('sha256');
  for (const input of INPUTS) walk(join(root, input), hash);
  return hash.digest('hex');
}

export function ensureBuild({ quiet = false } = {}) {
  const marker = join(root, '.next', 'doorwatch-source-hash');
  const want = sourceHash();
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
