// `doorwatch gate` and `doorwatch probe --wait` from the packed tarball against the real built
// Doorwatch and the reference sim servers (scripts/sim) in refusing and naive modes: the gate's
// three outcomes (0 refuses correctly, 1 resumes naively with the evidence, 2 inconclusive), from a
// fresh probe and from observed traffic. Runs on SQLite and PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { installPackedCli, type InstalledCli } from '../support/cli-package';
import { api, postNaiveResume } from '../support/alert-fixtures';
import { Ledger } from '@/scripts/sim/ledger';
import { startSimServer, type ServerMode, type SimServer } from '@/scripts/sim/server';

let app: AppServer;
let cli: InstalledCli;
const sims: SimServer[] = [];
const secrets = new Map<string, string>();

async function register(name: string, probeUrl: string | null) {
  const made = await api(app, '/api/v1/admin/servers', { method: 'POST', body: { name } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  secrets.set(name, made.body.secret);
  if (probeUrl) {
    const set = await api(app, `/api/v1/admin/servers/${name}/probe`, {
      method: 'PUT',
      body: { url: probeUrl, enabled: false, intervalSeconds: 3600 },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
  }
}

async function sim(mode: ServerMode) {
  const s = await startSimServer({
    name: `gate-${mode}`,
    mode,
    reporter: null,
    ledger: new Ledger(),
    upgradeAfterMs: () => 30,
    messageIntervalMs: 10,
  });
  sims.push(s);
  return s;
}

const gate = (args: string[]) => cli.run(['gate', ...args], { DOORWATCH_URL: app.url, DOORWATCH_TOKEN: ADMIN });

interface GateJson {
  server: string;
  outcome: string;
  exitCode: number;
  reasons: string[];
  probe: { verdict: string; failedSteps: { step: string }[] } | null;
  doorSessions: number;
  naive: { sessions: number; evidence: { token: string; flags: string[] }[] };
}

before(async () => {
  [cli, app] = await Promise.all([installPackedCli(), startAppServer()]);
  const [refusing, naive] = await Promise.all([sim('refusing'), sim('naive')]);
  await register('door-refusing', `${refusing.url}/mcp`);
  await register('door-naive', `${naive.url}/mcp`);
  await register('door-dead', 'http://127.0.0.1:9/mcp');
  await register('traffic-naive', null);
  await register('traffic-quiet', null);
});

after(async () => {
  for (const s of sims) await s.close();
  await app?.stop();
  cli?.cleanup();
});

describe('the deploy gate', () => {
  test('probe --wait: the exit code follows the verdict', async () => {
    const pass = await cli.run(['probe', 'door-refusing', '--wait', '--json'], { DOORWATCH_URL: app.url, DOORWATCH_TOKEN: ADMIN });
    assert.equal(pass.code, 0, pass.stderr);
    assert.equal(JSON.parse(pass.stdout).verdict, 'pass');
    const fail = await cli.run(['probe', 'door-naive', '--wait'], { DOORWATCH_URL: app.url, DOORWATCH_TOKEN: ADMIN });
    assert.equal(fail.code, 1, fail.stderr);
    assert.match(fail.stdout, /^probe of door-naive: fail in \d+ ms\nrun \S+ · http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
    assert.match(fail.stdout, /\nSTEP +EXPECTED +OBSERVED +VERDICT +WHY\n/);
    for (const line of fail.stdout.split('\n')) assert.ok(line.length <= 80, `over 80 columns: ${line}`);
  });

  test('0: a refusing server with a fresh probe and no naive traffic', async () => {
    const r = await gate(['door-refusing', '--probe', '--since', '15m']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^gate door-refusing: PASS \(exit 0\)\n {2}the door probe passed/);
    const j = JSON.parse((await gate(['door-refusing', '--probe', '--json'])).stdout) as GateJson;
    assert.deepEqual([j.outcome, j.exitCode, j.probe?.verdict, j.naive.sessions], ['pass', 0, 'pass', 0]);
  });

  test('1: a naive server, by its probe and by its traffic, with the evidence', async () => {
    const probed = await gate(['door-naive', '--probe', '--json']);
    assert.equal(probed.code, 1, probed.stderr);
    const j = JSON.parse(probed.stdout) as GateJson;
    assert.equal(j.outcome, 'fail');
    assert.equal(j.probe?.verdict, 'fail');
    assert.ok(j.probe!.failedSteps.length > 0);
    assert.equal(j.naive.sessions, 0, 'the probe’s own sessions are not traffic');

    await postNaiveResume(app, 'traffic-naive', secrets.get('traffic-naive')!, 'tok-deploy-1');
    const seen = await gate(['traffic-naive', '--since', '15m']);
    assert.equal(seen.code, 1, seen.stdout + seen.stderr);
    assert.match(seen.stdout, /FAIL \(exit 1\)\n {2}1 session\(s\) resumed naively since now-15m \(allowed: 0\)/);
    assert.match(seen.stdout, /session tok-deploy-1: naive_resume at \S+/);
    const tolerated = await gate(['traffic-naive', '--since', '15m', '--max-naive', '1']);
    assert.equal(tolerated.code, 0, tolerated.stdout);
  });

  test('2: inconclusive when there is nothing to judge by, the probe cannot decide, or time runs out', async () => {
    const quiet = await gate(['traffic-quiet', '--since', '15m']);
    assert.equal(quiet.code, 2, quiet.stdout + quiet.stderr);
    assert.match(quiet.stdout, /INCONCLUSIVE \(exit 2\)\n {2}no session of traffic-quiet reached the door/);
    const dead = await gate(['door-dead', '--probe', '--json']);
    assert.equal(dead.code, 2, dead.stderr);
    assert.equal((JSON.parse(dead.stdout) as GateJson).probe?.verdict, 'inconclusive');
    const noTarget = await gate(['traffic-quiet', '--probe']);
    assert.equal(noTarget.code, 2, noTarget.stdout + noTarget.stderr);
    assert.match(noTarget.stdout, /the door probe could not run/);
    const late = await gate(['door-refusing', '--probe', '--timeout', '1ms']);
    assert.equal(late.code, 2);
    assert.match(late.stderr, /INCONCLUSIVE: no decision within 1ms \[timeout\]/);
    const unknown = await gate(['no-such-server']);
    assert.equal(unknown.code, 5);
    assert.match(unknown.stderr, /unknown server no-such-server/);
  });
});
