// The `doorwatch` CLI from its packed tarball against the real built Doorwatch with a scripted
// fleet: every read command in human and --json form, the change stream followed across a dropped
// link, and each failure's exit code and message (never the token). Runs on SQLite and PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { installPackedCli, lineReader, type InstalledCli } from '../support/cli-package';
import { api, until } from '../support/alert-fixtures';
import { postEvents } from '../support/post-events';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { generateSecret } from '@/lib/contract/server-secret';

const CALM = { name: 'cli-calm', secret: generateSecret() };
const NAIVE = { name: 'cli-naive', secret: generateSecret() };
let app: AppServer;
let cli: InstalledCli;
let viewerToken: string;
let proxy: TcpProxy | null = null;

/** A session to the door and its answer: refused, or accepted (a naive resume) and closed before it could count as a deadlock. */
async function postBoundary(server: { name: string; secret: string }, token: string, answer: 'refused' | 'naive') {
  const t = Date.now() - 2000;
  const at = (ms: number) => new Date(t + ms).toISOString();
  const res = await postEvents(app.url, server.name, server.secret, [
    { id: `${token}-o`, token, type: 'session.opened', at: at(0), data: {} },
    { id: `${token}-u`, token, type: 'upgrade.accepted', at: at(100), data: { eventId: 7 } },
    { id: `${token}-d`, token, type: 'stream.dropped', at: at(150), data: { reason: 'reset' } },
    { id: `${token}-r`, token, type: 'resume.requested', at: at(200), data: { lastEventId: 7 } },
    ...(answer === 'refused'
      ? [{ id: `${token}-x`, token, type: 'resume.refused', at: at(250), data: { reason: 'superseded' } }]
      : [
          { id: `${token}-a`, token, type: 'resume.accepted', at: at(240), data: { replayed: 0 } },
          { id: `${token}-c`, token, type: 'session.closed', at: at(300), data: {} },
        ]),
  ]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

const as = (token: string) => ({ DOORWATCH_URL: app.url, DOORWATCH_TOKEN: token });
const admin = () => as(ADMIN);
const json = <T>(stdout: string) => JSON.parse(stdout) as T;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

before(async () => {
  [cli, app] = await Promise.all([
    installPackedCli(),
    startAppServer({
      // A short alert interval: the incident pass (run with alert evaluation) opens the naive server's incident quickly.
      env: { DOORWATCH_SERVERS: `${CALM.name}=${CALM.secret},${NAIVE.name}=${NAIVE.secret}`, DOORWATCH_ALERT_INTERVAL_MS: '300' },
    }),
  ]);
  const made = await api(app, '/api/v1/operators', { method: 'POST', body: { name: 'cli-viewer', role: 'viewer' } });
  assert.equal(made.status, 201);
  viewerToken = made.body.token;
  await postBoundary(CALM, 'tok-calm-1', 'refused');
  await postBoundary(NAIVE, 'tok-naive-1', 'naive');
});

after(async () => {
  await proxy?.close();
  await app?.stop();
  cli?.cleanup();
});

describe('doorwatch from its packed tarball', () => {
  test('the tarball holds the bundle alone, and --help runs outside the repository', async () => {
    assert.deepEqual(cli.packed, ['README.md', 'dist/doorwatch.mjs', 'package.json']);
    const help = await cli.run(['--help']);
    assert.equal(help.code, 0, help.stderr);
    for (const c of [
      'status',
      'servers',
      'sessions',
      'session TOKEN',
      'tail',
      'probe SERVER',
      'gate SERVER',
      'incidents',
      'ack ID',
      'annotate TEXT',
    ])
      assert.match(help.stdout, new RegExp(`\\n  ${c} `));
  });

  test('incidents, ack and annotate: the naive server incident listed, acknowledged by the admin (not a viewer), a deploy annotated', async () => {
    type List = {
      incidents: { id: string; server: string; kind: string; status: string; acknowledgedBy: string | null }[];
      totals: { open: number };
    };
    const listed = await until(
      'the naive server incident',
      async () => json<List>((await cli.run(['incidents', '--server', NAIVE.name, '--json'], as(viewerToken))).stdout),
      (l) => l.incidents.length === 1,
    );
    const [incident] = listed.incidents;
    assert.deepEqual([incident.server, incident.kind, incident.status], [NAIVE.name, 'naive_resume', 'open']);
    const table = await cli.run(['incidents', '--status', 'open', '--server', NAIVE.name], as(viewerToken));
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^1 open · 0 acknowledged · 0 resolved\n/);
    assert.match(
      table.stdout,
      new RegExp(
        `\\n${incident.id} {2}open {2}Naive resumes on ${NAIVE.name}\\n {2}since \\d+ s ago · 1 session · versions — · on it: nobody yet\\n`,
      ),
    );
    for (const line of table.stdout.split('\n')) assert.ok(line.length <= 80, `over 80 columns: ${line}`);

    const refused = await cli.run(['ack', incident.id], as(viewerToken));
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /forbidden: acknowledgeIncident needs the admin role/);
    const ack = await cli.run(['ack', incident.id], admin());
    assert.equal(ack.code, 0, ack.stderr);
    assert.match(ack.stdout, new RegExp(`^Naive resumes on ${NAIVE.name}: acknowledged by .+\\n {2}${incident.id}\\n$`));
    const twice = await cli.run(['ack', incident.id, '--json'], admin());
    assert.equal(twice.code, 64, 'an incident that is no longer open: the API answers 409');
    assert.match(twice.stderr, /\[\w+\]\n$/);
    const missing = await cli.run(['ack', '999999'], admin());
    assert.equal(missing.code, 5, missing.stderr);
    const after = json<List>((await cli.run(['incidents', '--server', NAIVE.name, '--json'], as(viewerToken))).stdout);
    assert.equal(after.incidents[0].status, 'acknowledged');
    assert.ok(after.incidents[0].acknowledgedBy);

    const at = Date.now() - 60_000;
    const note = await cli.run(
      ['annotate', 'deployed', 'v2.3.1', '--tag', 'deploy', '--tag', 'v2.3.1', '--server', NAIVE.name, '--time', String(at), '--json'],
      admin(),
    );
    assert.equal(note.code, 0, note.stderr);
    const made = json<{ id: string; text: string; tags: string[]; server: string; time: string }>(note.stdout);
    assert.deepEqual(
      [made.text, made.tags, made.server, made.time],
      ['deployed v2.3.1', ['deploy', 'v2.3.1'], NAIVE.name, new Date(at).toISOString()],
    );
    const stored = await api(app, `/api/v1/annotations?from=${at - 1000}&to=${at + 1000}`);
    assert.ok(
      stored.body.annotations.some((a: { id: string }) => a.id === made.id),
      'the annotation is stored',
    );
    const badTime = await cli.run(['annotate', 'x', '--time', 'yesterday-ish'], admin());
    assert.equal(badTime.code, 64);
    assert.match(badTime.stderr, /--time: "yesterday-ish" is not an RFC 3339 time or epoch ms \[invalid_time\]/);
    const badTag = await cli.run(['annotate', 'x', '--tag', 'has space'], admin());
    assert.equal(badTag.code, 64, 'the tag is checked with the API schema before anything is sent');
    assert.match(badTag.stderr, /invalid_tags/);
    const viewer = await cli.run(['annotate', 'x'], as(viewerToken));
    assert.equal(viewer.code, 3, viewer.stderr);
  });

  test('status: the alarm and the servers worst first, as text within 80 columns and as JSON', async () => {
    const human = await cli.run(['status'], as(viewerToken));
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^WARN {2}0 stuck now\n/);
    assert.match(human.stdout, /cli-naive resumes naively/);
    for (const line of human.stdout.split('\n')) assert.ok(line.length <= 80, `over 80 columns: ${line}`);
    assert.ok(!human.stdout.includes('\u001b['), 'no colour when stdout is not a terminal');
    const rows = human.stdout.split('\n').filter((l) => l.startsWith('cli-'));
    assert.deepEqual(
      rows.map((l) => l.split(/\s+/).slice(0, 2)),
      [
        ['cli-naive', 'naive'],
        ['cli-calm', 'refuses'],
      ],
    );
    const out = await cli.run(['status', '--json'], as(viewerToken));
    const status = json<{
      alarm: { level: string; headline: string; details: string[] };
      servers: { name: string; verdict: string; naiveInRange: boolean }[];
    }>(out.stdout);
    assert.equal(status.alarm.level, 'warn');
    assert.deepEqual(
      status.servers.map((s) => [s.name, s.verdict, s.naiveInRange]),
      [
        ['cli-naive', 'naive', true],
        ['cli-calm', 'refuses', false],
      ],
    );
  });

  test('servers and sessions (with the UI filters) in both forms', async () => {
    const servers = json<{ servers: { name: string; verdict: string; counts: { naiveResumes: number } }[] }>(
      (await cli.run(['servers', '--json'], admin())).stdout,
    );
    assert.deepEqual(servers.servers.map((s) => [s.name, s.verdict]).sort(), [
      ['cli-calm', 'refuses'],
      ['cli-naive', 'naive'],
    ]);
    const table = await cli.run(['servers'], admin());
    assert.match(table.stdout, /^SERVER +VERDICT +LAST SEEN +SESSIONS +DOOR +REFUSED +NAIVE +PROBE\n/);
    const naive = await cli.run(['sessions', '--flag', 'naive_resume', '--since', '15m', '--json'], admin());
    assert.equal(naive.code, 0, naive.stderr);
    assert.deepEqual(
      json<{ sessions: { token: string; server: string }[] }>(naive.stdout).sessions.map((s) => `${s.server}/${s.token}`),
      ['cli-naive/tok-naive-1'],
    );
    const calm = await cli.run(['sessions', '--server', CALM.name, '--limit', '5'], admin());
    assert.match(calm.stdout, /^SERVER +TOKEN +STATE +LAST EVENT +FLAGS\ncli-calm +tok-calm-1 .*boundary refused/);
    assert.match(calm.stderr, /1 of 1/);
  });

  test('session TOKEN: the timeline with the door and the answer marked', async () => {
    const text = await cli.run(['session', 'tok-calm-1'], as(viewerToken));
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /at the door: refused in 50 ms/);
    assert.match(text.stdout, /\nDOOR {3}\d\d:\d\d:\d\d\.\d{3} {2}upgrade\.accepted/);
    assert.match(text.stdout, /\nANSWER \d\d:\d\d:\d\d\.\d{3} {2}resume\.refused/);
    const out = json<{ marks: { door: string; answer: string }; timeline: { id: string }[] }>(
      (await cli.run(['session', 'tok-naive-1', '--json'], admin())).stdout,
    );
    assert.deepEqual(out.marks, { door: 'tok-naive-1-u', answer: 'tok-naive-1-a' });
    assert.equal(out.timeline.length, 6);
  });

  test('each failure has its exit code and names its cause, never with the token', async () => {
    const badToken = 'dw_not_a_real_token_4f1e9a';
    const cases: { args: string[]; env: Record<string, string>; code: number; message: RegExp }[] = [
      {
        args: ['servers', '--verbose'],
        env: as(badToken),
        code: 3,
        message: /token was refused .*unknown or revoked operator token.*\[unauthorized\]/,
      },
      {
        args: ['probe', CALM.name],
        env: as(viewerToken),
        code: 3,
        message: /forbidden: runProbe needs the admin role .*your token has viewer.*\[forbidden\]/,
      },
      {
        args: ['status'],
        env: { DOORWATCH_URL: `http://127.0.0.1:${await closedPort()}`, DOORWATCH_TOKEN: badToken },
        code: 4,
        message: /cannot reach .*connection refused.*\[unreachable\]/,
      },
      {
        args: ['status'],
        env: { DOORWATCH_URL: 'http://doorwatch.invalid', DOORWATCH_TOKEN: badToken },
        code: 4,
        message: /DNS.*\[unreachable\]/,
      },
      {
        args: ['session', 'tok-x', '--server', 'no-such-server'],
        env: admin(),
        code: 5,
        message: /no server "no-such-server".*\[server_not_found\]/,
      },
      { args: ['probe', 'no-such-server'], env: admin(), code: 5, message: /no-such-server/ },
      { args: ['sessions', '--since', 'yesterday-ish'], env: admin(), code: 64, message: /\[invalid_time_range\]/ },
      { args: ['sessions', '--limit', '501'], env: admin(), code: 64, message: /--limit: .*500.*\[invalid_limit\]/ },
      { args: ['sessions', '--flag', 'stuckish'], env: admin(), code: 64, message: /--flag: .*\[invalid_flag\]/ },
      { args: ['sessions', '--bogus'], env: admin(), code: 64, message: /Unknown option '--bogus'.*\[usage\]/ },
    ];
    for (const c of cases) {
      const r = await cli.run(c.args, c.env);
      assert.equal(r.code, c.code, `${c.args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, c.message, c.args.join(' '));
      assert.equal(
        r.stderr
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('doorwatch:')).length,
        1,
        'one line of error',
      );
      assert.ok(!/\n\s+at /.test(r.stderr), `no stack trace: ${r.stderr}`);
      for (const secret of [badToken, viewerToken, ADMIN])
        assert.ok(!(r.stdout + r.stderr).includes(secret), `${c.args.join(' ')} printed a token`);
    }
  });

  test('a context from the config file, and flags over the environment', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const config = join(cli.dir, 'xdg');
    mkdirSync(join(config, 'doorwatch'), { recursive: true });
    writeFileSync(
      join(config, 'doorwatch/config.json'),
      JSON.stringify({
        current: 'prod',
        contexts: { prod: { url: app.url, token: viewerToken }, broken: { url: 'http://doorwatch.invalid' } },
      }),
    );
    const byDefault = await cli.run(['servers', '--json'], { XDG_CONFIG_HOME: config });
    assert.equal(byDefault.code, 0, byDefault.stderr);
    const named = await cli.run(['servers', '--context', 'broken'], { XDG_CONFIG_HOME: config, DOORWATCH_URL: app.url });
    assert.equal(named.code, 4, 'a context named on purpose wins over the environment');
    const flag = await cli.run(['servers', '--context', 'broken', '--url', app.url, '--token', viewerToken], { XDG_CONFIG_HOME: config });
    assert.equal(flag.code, 0, flag.stderr);
    const unknown = await cli.run(['servers', '--context', 'staging'], { XDG_CONFIG_HOME: config });
    assert.equal(unknown.code, 64);
    assert.match(unknown.stderr, /no context "staging" .*known: prod, broken/);
  });

  test('tail prints changes and reconnects after the stream drops', async () => {
    const url = new URL(app.url);
    proxy = await startTcpProxy(url.hostname, Number(url.port));
    const child = cli.spawn(['tail', '--json', '--url', `http://127.0.0.1:${proxy.port}`], { DOORWATCH_TOKEN: viewerToken });
    const lines = lineReader(child);
    try {
      assert.equal(JSON.parse(await lines.next('ready')).type, 'ready');
      await postBoundary(CALM, 'tok-tail-1', 'refused');
      let line = JSON.parse(await lines.next('the first change'));
      assert.deepEqual([line.type, line.servers, line.tokens], ['change', [CALM.name], [{ server: CALM.name, token: 'tok-tail-1' }]]);
      proxy.down();
      line = JSON.parse(await lines.next('reconnecting'));
      assert.equal(line.type, 'reconnecting');
      assert.equal(line.attempt, 1);
      proxy.up();
      // Attempts made while the link was down each print a line; then the stream is back.
      do line = JSON.parse(await lines.next('ready again'));
      while (line.type === 'reconnecting');
      assert.equal(line.type, 'ready');
      await postBoundary(NAIVE, 'tok-tail-2', 'naive');
      line = JSON.parse(await lines.next('the change after the reconnect'));
      assert.deepEqual([line.type, line.servers], ['change', [NAIVE.name]]);
    } finally {
      child.kill();
    }
    assert.ok(!lines.all.join('\n').includes(viewerToken));
  });
});
