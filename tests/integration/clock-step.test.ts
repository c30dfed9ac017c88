// The host clock steps under a running Doorwatch (issue 28, docs/reliability.md "Clock steps").
// The app runs under libfaketime (LD_PRELOAD, monotonic clock left alone), whose offset file this
// test rewrites: the app's Date.now() jumps 30 minutes forward, then 60 minutes back, while the
// test's own clock and the reporters' event times go on as they are. With a deadlock ongoing, a
// rule pending on a 20-minute "for", a rule firing over a 10-minute window, a silence rule one step
// away from firing, and the ingest rate limiter holding one server at its limit, after each step
// (seen in the app's HTTP Date header, then two more evaluations):
// - the alert history, every rule's state and the incidents are as they were;
// - the ongoing deadlock's duration grew by the test's own elapsed time, not by the step;
// - the exhausted server is still limited (a forward step is no refill) and a server within its
//   budget is still admitted (a backward step is no debt);
// - a naive resume stored after the step back joins its incident (the sweep still reads it).
// Requests are signed with the app's stepped time: the signature's 5-minute tolerance is a
// calendar check between hosts and follows the wall clock on purpose.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppServer, type AppServer } from '../support/app-server';
import { api, naiveResumeEvents, postNaiveResume, until } from '../support/alert-fixtures';
import { postEvents } from '../support/post-events';
import { generateSecret } from '@/lib/contract/server-secret';
import { SLEW_RATE } from '@/lib/time/steady-clock';
import { findFaketimeLibrary } from '../../scripts/test-prerequisites.mjs';

const SECRET = generateSecret();
const MIN_S = 60;
const BURST = 20;

const library = findFaketimeLibrary();
const dir = mkdtempSync(join(tmpdir(), 'doorwatch-clock-'));
const offsetFile = join(dir, 'faketime');
/** The app's wall clock minus the real one, in seconds (what the offset file says). */
let offsetS = 0;
const setOffset = (seconds: number) => {
  offsetS = seconds;
  writeFileSync(offsetFile, `${seconds >= 0 ? '+' : ''}${seconds}\n`);
};

let app: AppServer;
before(async () => {
  assert.ok(library, 'libfaketime is installed by npm test (scripts/test-prerequisites.mjs)');
  setOffset(0);
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: ['clk', 'rl-full', 'rl-fresh'].map((s) => `${s}=${SECRET}`).join(','),
      DOORWATCH_ALERT_INTERVAL_MS: '300',
      DOORWATCH_DEADLOCK_THRESHOLD_MS: '1000',
      DOORWATCH_INCIDENT_QUIET_MS: String(20 * MIN_S * 1000),
      // 20 events of burst, refilled at one event per 20 s (a full burst in 400 s): only a clock step could refill it here.
      DOORWATCH_INGEST_RATE: '0.05',
      DOORWATCH_INGEST_BURST: String(BURST),
      LD_PRELOAD: library!,
      FAKETIME_TIMESTAMP_FILE: offsetFile,
      // Re-read the file every second; the test waits for the app's Date header to show the step.
      FAKETIME_CACHE_DURATION: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    },
  });
});
after(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Now by the app's stepped clock: what a reporter sharing the host's clock signs with. */
const appTime = () => new Date(Date.now() + offsetS * 1000);
const post = (server: string, events: unknown[]) => postEvents(app.url, server, SECRET, events, { timestamp: appTime() });
let seq = 0;
const opened = (n: number) =>
  Array.from({ length: n }, () => {
    const token = `tok-clock-${++seq}`;
    return { id: `${token}-o`, token, type: 'session.opened', at: new Date().toISOString(), data: {} };
  });

const rules = async () => {
  const res = await api(app, '/api/v1/alerts/rules');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.rules as any[];
};
const states = async () =>
  (await rules())
    .filter((r) => r.server === 'clk')
    .map((r) => [r.name, r.status?.state ?? null])
    .sort((a, b) => a[0].localeCompare(b[0]));
const history = async () => (await api(app, '/api/v1/alerts/history')).body.transitions.map((t: any) => [t.ruleName, t.kind, t.at]);
const incidents = async () => (await api(app, '/api/v1/incidents')).body.incidents.map((i: any) => [i.id, i.kind, i.status]);
const deadlock = async (token: string) => (await api(app, `/api/v1/servers/clk/sessions/${token}`)).body.session.deadlock;

/** Waits until the app's HTTP Date header shows the offset (libfaketime re-read its file), then two more evaluations. */
async function stepTo(seconds: number) {
  setOffset(seconds);
  await until(
    `the app's clock at ${seconds} s`,
    async () => Date.parse((await fetch(`${app.url}/api/health`)).headers.get('date') ?? '') - Date.now(),
    (skewMs) => Math.abs(skewMs - seconds * 1000) < 10_000,
  );
  const evaluatedAt = async () => Math.max(...(await rules()).map((r) => Date.parse(r.status?.evaluatedAt ?? '0')));
  for (let i = 0; i < 2; i++) {
    const seen = await evaluatedAt();
    await until('an alert evaluation', evaluatedAt, (at) => at > seen);
  }
}

test(
  'a step of the host clock fires no alert, resolves none, and moves neither deadlock durations nor rate limits',
  { timeout: 240_000 },
  async () => {
    for (const id of ['default-deadlock-ongoing', 'default-dual-negotiation', 'default-naive-resume'])
      assert.equal((await api(app, `/api/v1/alerts/rules/${id}`, { method: 'PATCH', body: { enabled: false } })).status, 200);
    const rule = (name: string, measure: string, threshold: number, windowSeconds: number, forSeconds: number) =>
      api(app, '/api/v1/alerts/rules', {
        method: 'POST',
        body: { name, measure, comparison: 'gt', threshold, windowSeconds, forSeconds, server: 'clk', contactPointIds: [] },
      });
    // Pending: fires only after 20 minutes of the condition (a 30-minute forward step would end that at once).
    assert.equal((await rule('held deadlock', 'deadlocks_ongoing', 0, 60 * MIN_S, 20 * MIN_S)).status, 201);
    // Firing: over a 10-minute window (a step either way would move the window off the deadlock).
    assert.equal((await rule('deadlock now', 'deadlocks_ongoing', 0, 10 * MIN_S, 0)).status, 201);
    // Inactive: silence is seconds (a 30-minute forward step would make it 30 minutes).
    assert.equal((await rule('silent server', 'server_silence_seconds', 15 * MIN_S, 60 * MIN_S, 0)).status, 201);

    await postNaiveResume(app, 'clk', SECRET, 'tok-deadlock');
    await until(
      'the deadlock to be ongoing',
      () => deadlock('tok-deadlock'),
      (d) => d?.ongoing === true,
    );
    const expected = [
      ['deadlock now', 'firing'],
      ['held deadlock', 'pending'],
      ['silent server', 'inactive'],
    ];
    await until('the rules to settle', states, (s) => JSON.stringify(s) === JSON.stringify(expected));
    // Both incidents before the snapshot. A pass sweeps sessions first and evaluates alerts second, so
    // when the batch commits between the two, the alert opens the deadlock incident in that pass and the
    // sweep opens the naive-resume one a pass later. Waiting for the first alone raced that next pass: on
    // a loaded machine it landed after the step (CI of 5 Dec 2026, PostgreSQL, load ~30).
    await until('the deadlock and naive-resume incidents', incidents, (l) =>
      ['deadlock', 'naive_resume'].every((kind) => l.some(([, k]: [string, string]) => k === kind)),
    );
    // The rate limiter: one server spent its burst, another holds a bucket it has barely used.
    assert.equal((await post('rl-full', opened(BURST))).status, 200);
    assert.equal((await post('rl-full', opened(BURST))).status, 429, 'the burst is spent');
    assert.equal((await post('rl-fresh', opened(1))).status, 200);

    const before = { history: await history(), incidents: await incidents() };
    const d0 = (await deadlock('tok-deadlock')).durationMs;
    const m0 = performance.now();
    const unchanged = async (what: string) => {
      assert.deepEqual(await states(), expected, `${what}: every rule in its state`);
      assert.deepEqual(await history(), before.history, `${what}: no transition`);
      assert.deepEqual(await incidents(), before.incidents, `${what}: the incidents as they were`);
      const d = await deadlock('tok-deadlock');
      const elapsed = performance.now() - m0;
      assert.equal(d.ongoing, true);
      // Grown by the test's elapsed time (within the slew of the step being absorbed and a request's
      // latency), never by the step's 30 or 60 minutes.
      const drift = d.durationMs - d0 - elapsed;
      assert.ok(
        Math.abs(drift) <= elapsed * SLEW_RATE + 5_000,
        `${what}: the deadlock's duration moved ${drift} ms beyond the elapsed ${elapsed} ms`,
      );
    };

    await stepTo(30 * MIN_S);
    await unchanged('30 minutes forward');
    assert.equal((await post('rl-full', opened(BURST))).status, 429, 'a forward step refills no bucket');
    assert.match(app.output(), /the host clock stepped/, 'the app saw the step and logged it');

    await stepTo(-30 * MIN_S);
    await unchanged('60 minutes back');
    assert.equal((await post('rl-fresh', opened(1))).status, 200, 'a backward step puts no bucket in debt');
    assert.equal((await post('rl-full', opened(BURST))).status, 429);

    // A naive resume stored after the step back still reaches its incident. The sweep's cursor was
    // moved while the clock was 30 minutes ahead; a session stamped with the stepped wall clock lay an
    // hour behind it and was never read (its rows are now stamped on the steady clock).
    // (Signed with the app's stepped time, as post() does; the events carry the reporter's unstepped clock.)
    const token = 'tok-after-step';
    assert.equal((await post('clk', naiveResumeEvents(token))).status, 200);
    const [naive] = (await incidents()).filter(([, kind]: [string, string]) => kind === 'naive_resume');
    await until(
      'the naive resume stored after the step in its incident',
      async () => (await api(app, `/api/v1/incidents/${naive[0]}`)).body.sessions.items.map((i: any) => i.token),
      (tokens) => tokens.includes(token),
    );
  },
);
