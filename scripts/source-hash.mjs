// The hash of every source the build depends on: ensure-build.mjs rebuilds .next, and
// compile-start.mjs the start script, when it changes.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = [
  'app',
  'components',
  'lib',
  'packages',
  'public',
  'instrumentation.ts',
  'instrumentation-node.ts',
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
