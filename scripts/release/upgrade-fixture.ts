// Writes an upgrade fixture (tests/fixtures/upgrade/<release>/): the databases an earlier release
// wrote through its own API, and the query API's answers it gave about them. The upgrade test
// (tests/integration/upgrade-with-data.test.ts) restores them, starts the current app on them (which
// migrates them) and checks the answers are unchanged. Run once per release, when it is tagged:
//
//   npx tsx scripts/release/upgrade-fixture.ts v0.33.0 [COMMIT] [--keep]
//
// (COMMIT defaults to the tag; --keep leaves the release's built worktree for a rerun.) The release
// is checked out into a temporary worktree, given this tree's node_modules when its lockfile asks
// for nothing this one lacks (else `npm ci --offline`), built, and started once on a fresh SQLite
// file and once on a fresh PostgreSQL database (on the cluster the integration tests use:
// tests/support/test-database.ts; docs/deploy.md#releases).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { startDoorwatchProcess } from '@/scripts/launch/doorwatch-process';
import { createTestDatabase } from '../../tests/support/test-database';
import { TEST_ADMIN_TOKEN } from '../../tests/support/app-server';
import { recordAnswers, recordedPaths, seedThroughApi, type UpgradeFixture } from '../../tests/support/upgrade-seed';
import { FIXTURE_ENV, fixtureDir } from '../../tests/support/upgrade-fixtures';

const ROOT = join(__dirname, '..', '..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

type Lock = { packages: Record<string, { version?: string }> };

/** True when every package the release's lockfile installs is installed here at the same version. */
function lockfileCovered(commit: string): boolean {
  const theirs = JSON.parse(git('show', `${commit}:package-lock.json`)) as Lock;
  const ours = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
  return Object.entries(theirs.packages).every(([path, p]) => path === '' || ours.packages[path]?.version === p.version);
}

/** A built checkout of `commit` in a temporary worktree (one left by --keep is reused: it builds in minutes). */
function builtRelease(commit: string): string {
  const tree = join(tmpdir(), `doorwatch-release-${commit.slice(0, 12)}`);
  if (!existsSync(tree)) {
    git('worktree', 'add', '--detach', tree, commit);
    if (lockfileCovered(commit)) {
      console.log('node_modules: the release needs nothing this tree lacks; copying it');
      cpSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      for (const pkg of readdirSync(join(tree, 'packages'))) {
        const own = join(ROOT, 'packages', pkg, 'node_modules');
        if (existsSync(own)) cpSync(own, join(tree, 'packages', pkg, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      }
    } else {
      console.log('node_modules: the lockfiles differ; npm ci --offline');
      execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: tree, stdio: 'inherit' });
    }
  }
  // A copy taken while this tree's `npm ci` is still running lacks the native build that finishes last
  // (better-sqlite3's binary): the release built and then failed at its first start (7 Dec). Say so first.
  try {
    const load =
      "try { new (require('better-sqlite3'))(':memory:').close() } catch (e) { console.error(e.message.split('\\n')[0]); process.exit(1) }";
    execFileSync(process.execPath, ['-e', load], { cwd: tree, stdio: 'pipe' });
  } catch (err) {
    const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || String(err);
    throw new Error(
      `the release's worktree cannot load better-sqlite3 (${why}). Was \`npm ci\` still running in this tree? ` +
        `Let it finish, remove the worktree (git worktree remove --force ${tree}) and run this again.`,
      { cause: err },
    );
  }
  const node = (script: string) => execFileSync(process.execPath, [script], { cwd: tree, stdio: 'inherit' });
  node('scripts/prisma-generate.mjs');
  node('scripts/ensure-build.mjs');
  return tree;
}

async function writeProvider(release: string, commit: string, tree: string, provider: 'sqlite' | 'postgresql', out: string) {
  const db = await createTestDatabase(provider);
  try {
    const app = await startDoorwatchProcess({
      root: tree,
      env: { DATABASE_URL: db.url, DOORWATCH_ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...FIXTURE_ENV },
    });
    let fixture: UpgradeFixture;
    try {
      const secrets = await seedThroughApi(app.url, TEST_ADMIN_TOKEN);
      const answers = await recordAnswers(app.url, TEST_ADMIN_TOKEN, await recordedPaths(app.url, TEST_ADMIN_TOKEN));
      const refused = answers.filter((a) => a.status !== 200);
      if (refused.length) throw new Error(`${release} answered ${refused.map((a) => `${a.status} ${a.path}`).join(', ')}`);
      fixture = { release, commit, generatedAt: new Date().toISOString(), secrets, answers };
    } finally {
      await app.stop();
    }
    if (provider === 'sqlite') {
      // VACUUM INTO: one compact file without the WAL; gzip keeps the mostly empty pages out of the repository.
      const copy = join(tmpdir(), `doorwatch-fixture-${process.pid}.db`);
      rmSync(copy, { force: true });
      const file = new Database(db.url.slice('file:'.length));
      file.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`);
      file.close();
      writeFileSync(join(out, 'sqlite.db.gz'), gzipSync(readFileSync(copy), { level: 9 }));
      rmSync(copy);
    } else {
      // Plain SQL (readable in review), without owners or grants: the test restores it as another role into a new database.
      const sql = execFileSync('pg_dump', ['--format=plain', '--no-owner', '--no-privileges', '--dbname', db.url], {
        maxBuffer: 256 * 1024 * 1024,
      });
      writeFileSync(join(out, 'postgresql.sql.gz'), gzipSync(sql, { level: 9 }));
    }
    writeFileSync(join(out, `${provider}.json`), `${JSON.stringify(fixture, null, 1)}\n`);
  } finally {
    await db.drop();
  }
}

async function main() {
  const keep = process.argv.includes('--keep');
  const [release, ref = release] = process.argv.slice(2).filter((a) => a !== '--keep');
  if (!release || !/^[\w.-]+$/.test(release))
    throw new Error('usage: upgrade-fixture.ts RELEASE [COMMIT] (RELEASE: the tag, e.g. v0.33.0)');
  const commit = git('rev-parse', `${ref}^{commit}`);
  const tree = builtRelease(commit);
  try {
    const out = fixtureDir(release);
    mkdirSync(out, { recursive: true });
    for (const provider of ['sqlite', 'postgresql'] as const) {
      const started = Date.now();
      await writeProvider(release, commit, tree, provider, out);
      console.log(`${release} (${commit.slice(0, 7)}) ${provider}: written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    for (const f of readdirSync(out)) console.log(`  ${join(out, f)}: ${(statSync(join(out, f)).size / 1024).toFixed(1)} kB`);
  } finally {
    if (keep) console.log(`the release's worktree stays at ${tree}; remove it with: git worktree remove --force ${tree}`);
    else git('worktree', 'remove', '--force', tree);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
