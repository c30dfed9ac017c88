// Compiles scripts/start.ts and the lib/ modules it imports into one plain CommonJS file,
// dist/start/start.cjs, so `npm start` (scripts/start.mjs) serves from a single plain `node`
// process: no tsx CLI parent, no loader hooks and no esbuild service beside the server.
// Packages stay external (required from node_modules at run time, as under tsx).
// scripts/launch/next-server.ts is bundled too, and counts in the bundle's hash.
// The ingest threads' body, lib/ingest/ingest-thread.ts, is compiled the same way to
// dist/ingest/ingest-thread.cjs: a worker thread needs a file of plain JavaScript to start.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceHash } from './source-hash.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(root, 'scripts', 'start.ts');
const OUT_DIR = join(root, 'dist', 'start');
export const START_BUNDLE = join(OUT_DIR, 'start.cjs');
const MARKER = join(OUT_DIR, 'source-hash');
// lib/ingest/ingest-threads.ts (INGEST_THREAD_BUNDLE) starts its threads from this file.
const LAUNCH_DIR = join(root, 'scripts', 'launch');
const INGEST_THREAD_ENTRY = join(root, 'lib', 'ingest', 'ingest-thread.ts');
const INGEST_THREAD_BUNDLE = join(root, 'dist', 'ingest', 'ingest-thread.cjs');

/** The bundle's inputs: the app sources (lib/ among them), the start script, what it launches with and this compiler. */
function startHash(appSourceHash) {
  const hash = createHash('sha256').update(appSourceHash).update(readFileSync(ENTRY));
  for (const name of readdirSync(LAUNCH_DIR).sort()) hash.update(name).update(readFileSync(join(LAUNCH_DIR, name)));
  return hash.update(readFileSync(fileURLToPath(import.meta.url))).digest('hex');
}

/** Compiles unconditionally (esbuild runs once, synchronously, and exits). Silent unless it fails. */
export function compileStart(appSourceHash) {
  // Loaded only here: a start with a fresh bundle never loads esbuild at all.
  const { buildSync } = createRequire(import.meta.url)('esbuild');
  const bundle = (entry, outfile) =>
    buildSync({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      tsconfig: join(root, 'tsconfig.json'),
      // CommonJS has no import.meta: the one reader, the generated Prisma client, only sets
      // globalThis.__dirname with it (nothing reads that under CommonJS), so the bundle's own URL stands in.
      banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
      define: { 'import.meta.url': '__import_meta_url' },
      logLevel: 'error',
    });
  bundle(ENTRY, START_BUNDLE);
  bundle(INGEST_THREAD_ENTRY, INGEST_THREAD_BUNDLE);
  writeFileSync(MARKER, startHash(appSourceHash));
  return START_BUNDLE;
}

/** The bundle's path, compiled first when it is missing or older than the sources (appSourceHash: sourceHash()). */
export function ensureStartBundle(appSourceHash) {
  if (
    existsSync(START_BUNDLE) &&
    existsSync(INGEST_THREAD_BUNDLE) &&
    existsSync(MARKER) &&
    readFileSync(MARKER, 'utf8') === startHash(appSourceHash)
  )
    return START_BUNDLE;
  return compileStart(appSourceHash);
}

// `npm run build`: always compile.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) compileStart(sourceHash());
