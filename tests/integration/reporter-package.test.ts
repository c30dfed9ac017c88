// @doorwatch/reporter as a server author gets it: `npm pack`, installed from the tarball into a
// fresh project (offline), type-checked under NodeNext and Bundler resolution, then run with
// node against the real built Doorwatch. The stored session must be exactly what it reported.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startAppServer, type AppServer } from '@/tests/support/app-server';
import { readReportedSession, REFUSED_TIMELINE_TYPES } from '@/tests/support/reported-session';
import { generateSecret } from '@/lib/contract/server-secret';
import { testProvider } from '../support/test-database';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../..');
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const SERVER = { name: 'pkg-consumer', secret: generateSecret() };
// Bounds each child process; a hang fails the test instead of stalling CI.
const STEP_TIMEOUT_MS = 120_000;

const CONSUMER = `import { createReporter, newEventId, type DoorwatchEvent, type ReporterError } from '@doorwatch/reporter';
import { createMcpSdkAdapter, type McpSdkAdapter } from '@doorwatch/reporter/mcp-sdk';

const [url, server, secret, token] = process.argv.slice(2) as [string, string, string, string];
const errors: string[] = [];
const reporter = createReporter({ url, server, secret, instance: 'pkg-consumer-1', onError: (e: ReporterError) => errors.push(e.code) });
const t0 = Date.now() - 1000;
const at = (ms: number): string => new Date(t0 + ms).toISOString();
const timeline: DoorwatchEvent[] = [
  { id: newEventId(), token, at: at(0), type: 'session.opened' },
  { id: newEventId(), token, at: at(100), type: 'upgrade.accepted', data: { eventId: 7 } },
  { id: newEventId(), token, at: at(150), type: 'stream.dropped', data: { reason: 'reset' } },
  { id: newEventId(), token, at: at(200), type: 'resume.requested', data: { lastEventId: 7 } },
  { id: newEventId(), token, at: at(250), type: 'resume.refused', data: { reason: 'superseded' } },
];
for (const event of timeline) reporter.report(event);
// The SDK adapter's subpath resolves (and type-checks) without the SDK installed.
const adapter: McpSdkAdapter = createMcpSdkAdapter({ reporter, idleTimeoutMs: 0 });
adapter.dispose();
await reporter.close();
console.log(JSON.stringify({ ids: timeline.map((e) => e.id), stats: reporter.stats(), errors }));
`;

let app: AppServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doorwatch-pkg-'));
  app = await startAppServer({ env: { DOORWATCH_SERVERS: `${SERVER.name}=${SERVER.secret}` } });
});

after(async () => {
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test(
  'the packed package installs offline, type-checks under NodeNext and Bundler, and its events are stored',
  { skip: testProvider() !== 'sqlite' && 'the reporter and its wire format do not depend on the database: run once, on SQLite' },
  async () => {
    // npm pack runs the package's prepack (tsc build), so the tarball holds fresh dist/.
    const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: join(REPO, 'packages/reporter'),
      timeout: STEP_TIMEOUT_MS,
    });
    const [{ filename, files }] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const paths = files.map((f) => f.path);
    assert.ok(paths.includes('dist/index.js') && paths.includes('dist/index.d.ts'), paths.join(', '));

    const project = join(dir, 'consumer');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { '@doorwatch/reporter': `file:../${filename}` } }),
    );
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, timeout: STEP_TIMEOUT_MS });
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@doorwatch/reporter/package.json'), 'utf8')) as {
      dependencies?: object;
    };
    assert.equal(installed.dependencies, undefined, 'no runtime dependencies');

    writeFileSync(join(project, 'src/main.ts'), CONSUMER);
    const common = {
      target: 'ES2022',
      strict: true,
      skipLibCheck: false,
      // The consumer brings @types/node as any Node project does; here it is the repository's copy.
      typeRoots: [join(REPO, 'node_modules/@types')],
      types: ['node'],
    };
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { ...common, module: 'NodeNext', moduleResolution: 'NodeNext', rootDir: 'src', outDir: 'dist' },
        include: ['src'],
      }),
    );
    writeFileSync(
      join(project, 'tsconfig.bundler.json'),
      JSON.stringify({ compilerOptions: { ...common, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true }, include: ['src'] }),
    );
    for (const config of ['tsconfig.bundler.json', 'tsconfig.json']) {
      await run(process.execPath, [TSC, '-p', config], { cwd: project, timeout: STEP_TIMEOUT_MS }).catch((err: { stdout?: string }) => {
        throw new Error(`tsc -p ${config} failed:\n${err.stdout ?? String(err)}`);
      });
    }

    const token = 'tok-pkg-consumer';
    const out = await run(process.execPath, ['dist/main.js', app.url, SERVER.name, SERVER.secret, token], {
      cwd: project,
      timeout: STEP_TIMEOUT_MS,
    });
    const result = JSON.parse(out.stdout) as {
      ids: string[];
      stats: { accepted: number; failed: number; dropped: number };
      errors: string[];
    };
    assert.deepEqual(result.errors, []);
    assert.equal(result.stats.accepted, 5);

    const stored = await readReportedSession(app, SERVER.name, token);
    assert.deepEqual(stored.eventIds, result.ids);
    assert.deepEqual(stored.types, REFUSED_TIMELINE_TYPES);
    assert.equal(stored.boundaryOutcome, 'refused');
    assert.equal(stored.verdict, 'refuses');
    assert.deepEqual(stored.reporters, [{ instance: 'pkg-consumer-1', dropped: 0, failed: 0 }]);
  },
);
