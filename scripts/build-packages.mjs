// Builds the workspace packages under packages/ (tsc → dist/) that the app, the simulator and
// the tests import through node_modules. Runs at `npm install`/`npm ci` (postinstall), before
// the typecheck in `npm test`, and before `next build` in ensure-build.mjs; a build is ~2 s.
// packages/cli is bundled instead (esbuild, one file): it imports the route contracts from
// lib/contract (and zod) by path, so its tarball carries them and installs without the repository.
// Outputs are compiled aside and only files whose bytes changed are replaced, each by a rename: npm
// test builds the packages before its unit tests and again (ensure-build.mjs) while they run, and tsc
// writing in place let a test import a truncated file (reporter.test.ts, "validateEvent is not a
// function", CI of 5 Dec 2026).
//   node scripts/build-packages.mjs            every package
//   node scripts/build-packages.mjs cli [OUT]  the CLI alone, to OUT (default packages/cli/dist/doorwatch.mjs)
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'packages', 'cli');

/** The CLI as one ESM file with a shebang: its sources, the lib/ modules they import, and zod. */
export function bundleCli(outfile = join(CLI, 'dist', 'doorwatch.mjs')) {
  const { buildSync } = createRequire(import.meta.url)('esbuild');
  const { version } = JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8'));
  const result = buildSync({
    absWorkingDir: root,
    entryPoints: [join(CLI, 'src', 'main.ts')],
    outfile,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The repository's tsconfig maps @/ to the root, as for the app.
    tsconfig: join(root, 'tsconfig.json'),
    banner: { js: '#!/usr/bin/env node' },
    define: { DOORWATCH_CLI_VERSION: JSON.stringify(version) },
    // Small and quick to start: zod is most of it. Names are kept so an internal error still says what failed.
    minify: true,
    keepNames: true,
    legalComments: 'eof',
    logLevel: 'error',
  });
  for (const f of result.outputFiles) replaceIfChanged(f.path, Buffer.from(f.contents));
}

/** Writes `path` only if its bytes differ, through a temporary file renamed over it (a reader sees old or new). */
function replaceIfChanged(path, bytes) {
  if (existsSync(path) && readFileSync(path).equals(bytes)) return;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name), base) : [relative(base, join(dir, d.name))],
  );
}

export function buildPackages() {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    if (name === 'cli') {
      bundleCli();
      continue;
    }
    const tsconfig = join(root, 'packages', name, 'tsconfig.json');
    if (!existsSync(tsconfig)) continue;
    const out = mkdtempSync(join(tmpdir(), `doorwatch-${name}-dist-`));
    try {
      execFileSync(process.execPath, [tsc, '-p', tsconfig, '--outDir', out], { cwd: root, stdio: 'inherit' });
      const dist = join(root, 'packages', name, 'dist');
      for (const file of filesUnder(out)) replaceIfChanged(join(dist, file), readFileSync(join(out, file)));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [only, out] = process.argv.slice(2);
  if (only === 'cli') bundleCli(out ? resolve(out) : undefined);
  else buildPackages();
}
