// The Dockerfile, linted here because no Docker engine runs on the development machine or in CI
// (and hadolint is in neither Debian nor npm): the runtime stage runs as a non-root user, owns
// nothing but the data directory (so `docker run --read-only --tmpfs /tmp -v data:/app/data`
// works: the app writes only there at run time), has a HEALTHCHECK on the health endpoint that
// needs no curl, and follows the hadolint rules that apply (pinned bases, exec-form CMD, lean apt).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

interface Instruction {
  op: string;
  args: string;
  line: number;
}

/** Instructions with continuation lines joined and comments dropped, split into stages at FROM. */
function parseDockerfile(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  let pending = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) return;
    if (pending === '') start = i + 1;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trimEnd()} `;
      return;
    }
    const full = pending + line;
    pending = '';
    const m = /^(\w+)\s+([\s\S]*)$/.exec(full);
    assert.ok(m, `Dockerfile line ${start}: not an instruction: ${full}`);
    const ins = { op: m[1].toUpperCase(), args: m[2].trim(), line: start };
    if (ins.op === 'FROM') stages.push([]);
    assert.ok(stages.length > 0, `Dockerfile line ${start}: ${ins.op} before the first FROM`);
    stages.at(-1)!.push(ins);
  });
  return stages;
}

const stages = parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const last = (stage: Instruction[], op: string) => stage.filter((i) => i.op === op).at(-1);
const index = (stage: Instruction[], ins: Instruction | undefined) => (ins ? stage.indexOf(ins) : -1);

test('every base image is pinned to a tag that is not latest (hadolint DL3006, DL3007)', () => {
  for (const stage of stages) {
    const image = stage[0].args.split(/\s+/)[0];
    assert.match(image, /^[\w./-]+:(?!latest$)[\w.-]+(@sha256:[0-9a-f]{64})?$/, `line ${stage[0].line}: ${image}`);
  }
});

test('the runtime stage runs as a non-root user, set before the command', () => {
  const user = last(runtime, 'USER');
  assert.ok(user, 'a USER in the runtime stage');
  const name = user.args.split(':')[0];
  assert.ok(!['root', '0'].includes(name), `USER ${user.args}`);
  assert.ok(index(runtime, user) < index(runtime, last(runtime, 'CMD')), 'USER before CMD');
  assert.ok(
    runtime.slice(index(runtime, user)).every((i) => i.op !== 'RUN'),
    'nothing RUN after USER needs root: there should be nothing to run',
  );
});

test('only the data directory is the app user’s: its files are root’s, so a read-only root filesystem changes nothing', () => {
  for (const ins of runtime.filter((i) => i.op === 'COPY' || i.op === 'ADD'))
    assert.ok(!/--chown/.test(ins.args), `line ${ins.line}: the app's own files stay read-only to it: ${ins.args}`);
  assert.ok(
    runtime.every((i) => i.op !== 'ADD'),
    'COPY, not ADD (hadolint DL3020)',
  );
  const chowns = runtime.filter((i) => i.op === 'RUN' && /\bchown\b/.test(i.args));
  assert.deepEqual(
    chowns.map((i) => /chown\s+(?:-\S+\s+)*\S+\s+(\S+)/.exec(i.args)?.[1]),
    ['/app/data'],
  );
  assert.match(last(runtime, 'VOLUME')?.args ?? '', /"\/app\/data"/);
  const env = runtime
    .filter((i) => i.op === 'ENV')
    .map((i) => i.args)
    .join(' ');
  assert.match(env, /DATABASE_URL=file:\/app\/data\//, 'the SQLite default lives in the data directory');
  // The build cache is not shipped (and nothing at run time writes there: docs/reliability.md).
  assert.ok(stages[0].some((i) => i.op === 'RUN' && /rm -rf \.next\/cache/.test(i.args)));
});

test('a HEALTHCHECK on the health endpoint, without curl or wget (the slim image has neither)', () => {
  const hc = last(runtime, 'HEALTHCHECK');
  assert.ok(hc, 'a HEALTHCHECK in the runtime stage');
  assert.match(hc.args, /--interval=\d+s/);
  assert.match(hc.args, /--timeout=\d+s/);
  assert.match(hc.args, /\bCMD\s+node\s+-e\s/);
  assert.doesNotMatch(hc.args, /\b(curl|wget)\b/);
  assert.match(hc.args, /\/api\/health\b/);
  assert.ok(existsSync(join(root, 'app/api/health/route.ts')), 'the endpoint the check calls exists');
});

test('CMD in exec form (hadolint DL3025), absolute WORKDIR (DL3000), lean apt installs (DL3009, DL3015)', () => {
  const cmd = last(runtime, 'CMD');
  assert.ok(cmd);
  assert.ok(Array.isArray(JSON.parse(cmd.args)), cmd.args);
  for (const stage of stages)
    for (const ins of stage) {
      if (ins.op === 'WORKDIR') assert.ok(ins.args.startsWith('/'), `line ${ins.line}`);
      if (ins.op === 'RUN' && /apt-get install/.test(ins.args)) {
        assert.match(ins.args, /apt-get install -y --no-install-recommends/, `line ${ins.line}`);
        assert.match(ins.args, /rm -rf \/var\/lib\/apt\/lists\/\*/, `line ${ins.line}`);
      }
    }
});

test('.dockerignore keeps local state out of the build context', () => {
  const ignored = new Set(
    readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim()),
  );
  for (const path of ['node_modules', '.next', 'data', '.git', 'test-output']) assert.ok(ignored.has(path), path);
});

test('the parser sees through continuations and comments, and refuses what is not an instruction', () => {
  const parsed = parseDockerfile('# c\nFROM a:1 AS b\nRUN x \\\n  y\n\nFROM c:2\nUSER n\n');
  assert.deepEqual(
    parsed.map((s) => s.map((i) => `${i.op} ${i.args}`)),
    [
      ['FROM a:1 AS b', 'RUN x y'],
      ['FROM c:2', 'USER n'],
    ],
  );
  assert.throws(() => parseDockerfile('FROM a:1\n=oops\n'));
});
