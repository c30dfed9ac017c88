// npm start (and the Dockerfile, the tests, the demo and the benchmarks) on plain node: the start
// script is TypeScript, compiled to dist/start/start.cjs when the sources changed (compile-start.mjs).
// This process first runs its prepare() step (settings, build, migrations, provisioning) in a child
// that exits, then serves itself: one process stays, with no database start-up code loaded.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { ensureStartBundle } from './compile-start.mjs';
import { ensureBuild, sourceHash } from './ensure-build.mjs';

const PREPARE = '--prepare';

// Prisma's query compiler is WebAssembly, and V8 compiles it twice: baseline code (Liftoff) at once,
// then optimised code (TurboFan) in the background, ~50-75 MB more resident for queries that only touch
// the small admin tables. Baseline only: measured no slower per query (docs/benchmarks.md, Memory).
// Read when a module is compiled, so setting it here, before any WebAssembly, is enough.
setFlagsFromString('--liftoff-only');
// V8 lets the old generation grow up to ~4x its live size before a full collection: under ingest the
// server's heap rose to ~230 MB for ~90 MB live. Growing by 20 % at a time keeps it near the live size
// (server peak 337 → 200 MB on PostgreSQL) with no measurable CPU per event (docs/benchmarks.md, Memory).
// Read at each collection, so setting it at run time applies.
setFlagsFromString('--heap-growing-percent=20');

if (process.argv[2] === PREPARE) {
  const hash = process.argv[3];
  createRequire(import.meta.url)(ensureStartBundle(hash)).prepare({ ensureBuild: () => ensureBuild({ quiet: true, hash }) });
} else {
  const hash = sourceHash();
  const bundle = ensureStartBundle(hash);
  const step = spawnSync(process.execPath, [fileURLToPath(import.meta.url), PREPARE, hash], { stdio: 'inherit' });
  if (step.status !== 0) process.exit(step.status ?? 1);
  createRequire(import.meta.url)(bundle).serve();
}
