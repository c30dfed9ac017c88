// Door probes end to end: an admin registers probe targets pointing at reference sim servers
// (refusing, naive, and the 409 front) over loopback, runs them through the API, and the stored
// classification, the server verdicts, the history, the synthetic sessions (kept out of
// /api/v1/stats) and a scheduled run are checked. Runs on SQLite and PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { openDb } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { measure } from '@/lib/alerts/measures';
import { postEvents } from '../support/post-events';
import { startConflictFront, type ConflictFront } from '../support/conflict-front';
import { Ledger } from '@/scripts/sim/ledger';
import { startSimServer, type ServerMode, type SimServer } from '@/scripts/sim/server';
import type { TProbeHistoryResponse, TProbeRunView } from '@/lib/contract/api/probes';
import type { TServerListResponse } from '@/lib/contract/api/servers';
import type { TSessionListResponse } from '@/lib/contract/api/sessions';

const CREDENTIAL = 'probe-credential-5c2e91';
let app: AppServer;
const sims: SimServer[] = [];
let front: ConflictFront;
const secrets = new Map<string, string>();

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${app.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}`, ...(init.headers ?? {}) },
  });
const json = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
  const res = await api(path, init);
  return { status: res.status, body: (await res.json()) as T };
};

const sim = async (mode: ServerMode, upgradeAfterMs = 30) => {
  const s = await startSimServer({
    name: `target-${mode}`,
    mode,
    reporter: null,
    ledger: new Ledger(),
    upgradeAfterMs: () => upgradeAfterMs,
    messageIntervalMs: 10,
  });
  sims.push(s);
  return s;
};

async function register(name: string, url: string, extra: Record<string, unknown> = {}) {
  const made = await json<{ secret: string }>('/api/v1/admin/servers', { method: 'POST', body: JSON.stringify({ name }) });
  assert.equal(made.status, 201);
  secrets.set(name, made.body.secret);
  const set = await api(`/api/v1/admin/servers/${name}/probe`, {
    method: 'PUT',
    body: JSON.stringify({ url, enabled: false, intervalSeconds: 3600, ...extra }),
  });
  assert.equal(set.status, 200, await set.clone().text());
  return set.json();
}

const runNow = (name: string) => json<TProbeRunView>(`/api/v1/admin/servers/${name}/probe/run`, { method: 'POST' });
const stepVerdicts = (run: TProbeRunView) =>
  Object.fromEntries(run.result.classification.steps.map((s) => [s.step, `${s.verdict}:${s.finding}`]));

before(async () => {
  app = await startAppServer({ env: { DOORWATCH_PROBE_TICK_MS: '300', DOORWATCH_PROBE_MIN_INTERVAL_MS: '1000' } });
});
after(async () => {
  await front?.close();
  for (const s of sims) await s.close();
  await app?.stop();
});

describe('door probes through the API', () => {
  test('targets are validated, and the credential is never returned', async () => {
    const refusing = await sim('refusing');
    const target = await register('door-refusing', `${refusing.url}/mcp`, { credential: { header: 'X-Probe-Key', value: CREDENTIAL } });
    assert.equal(target.credentialHeader, 'X-Probe-Key');
    assert.equal(target.credentialSet, true);
    assert.ok(!JSON.stringify(target).includes(CREDENTIAL));

    const withUser = await json<{ error: { code: string } }>('/api/v1/admin/servers/door-refusing/probe', {
      method: 'PUT',
      body: JSON.stringify({ url: 'http://u:p@127.0.0.1:1/mcp' }),
    });
    assert.equal(withUser.status, 400);
    assert.equal(withUser.body.error.code, 'invalid_probe_url');
    const ftp = await json<{ error: { code: string } }>('/api/v1/admin/servers/door-refusing/probe', {
      method: 'PUT',
      body: JSON.stringify({ url: 'ftp://127.0.0.1/mcp' }),
    });
    assert.equal(ftp.status, 400);
    const reserved = await api('/api/v1/admin/servers/door-refusing/probe', {
      method: 'PUT',
      body: JSON.stringify({ url: `${refusing.url}/mcp`, credential: { header: 'Mcp-Session-Id', value: 'x' } }),
    });
    assert.equal(reserved.status, 400);
    const unknown = await api('/api/v1/admin/servers/nobody/probe', {
      method: 'PUT',
      body: JSON.stringify({ url: `${refusing.url}/mcp` }),
    });
    assert.equal(unknown.status, 404);
    assert.equal((await api('/api/v1/admin/servers/nobody/probe/run', { method: 'POST' })).status, 404);
    // Viewers read history but cannot run probes.
    const viewer = (
      await json<{ token: string }>('/api/v1/operators', { method: 'POST', body: JSON.stringify({ name: 'probe-viewer', role: 'viewer' }) })
    ).body.token;
    assert.equal(
      (await api('/api/v1/admin/servers/door-refusing/probe/run', { method: 'POST', headers: { authorization: `Bearer ${viewer}` } }))
        .status,
      403,
    );
    assert.equal((await api('/api/v1/servers/door-refusing/probes', { headers: { authorization: `Bearer ${viewer}` } })).status, 200);
  });

  test('a refusing server passes every step; its verdict says it was probed', async () => {
    const { status, body: run } = await runNow('door-refusing');
    assert.equal(status, 200);
    assert.equal(run.verdict, 'pass');
    assert.deepEqual(stepVerdicts(run), {
      healthy: 'pass:upgraded',
      reset_at_door: 'pass:refused',
      reconnect_without_cursor: 'pass:refused',
      cursor_before_door: 'pass:resumed',
    });
    assert.ok(!JSON.stringify(run).includes(CREDENTIAL), 'the credential is redacted from transcripts');
    const servers = (await json<TServerListResponse>('/api/v1/servers')).body.servers;
    const view = servers.find((s) => s.name === 'door-refusing')!;
    assert.equal(view.verdict, 'refuses');
    assert.equal(view.evidence, 'probe');
    assert.match(view.verdictText, /^refuses — probed (just now|1 min ago)$/);
    assert.equal(view.probe?.runId, run.id);
  });

  test('a naive server fails at the door with a deadlock and a dual negotiation', async () => {
    const naive = await sim('naive');
    await register('door-naive', `${naive.url}/mcp`);
    const { body: run } = await runNow('door-naive');
    assert.equal(run.verdict, 'fail');
    const v = stepVerdicts(run);
    assert.equal(v.healthy, 'pass:upgraded');
    assert.equal(v.reset_at_door, 'fail:deadlock');
    assert.equal(v.reconnect_without_cursor, 'fail:dual_negotiation');
    const view = (await json<TServerListResponse>('/api/v1/servers')).body.servers.find((s) => s.name === 'door-naive')!;
    assert.equal(view.verdict, 'naive');
    assert.match(view.verdictText, /^resumes naively — probe at \d\d:\d\d$/);
    // The failed run opened the server's probe-failure incident; its thread says what failed, not the run's id.
    const incidents = (await json<{ incidents: { id: string; kind: string }[] }>('/api/v1/incidents?server=door-naive')).body.incidents;
    const incident = incidents.find((i) => i.kind === 'probe_failure')!;
    const thread = (await json<{ timeline: { kind: string; summary: string }[] }>(`/api/v1/incidents/${incident.id}`)).body.timeline;
    const opened = thread.find((e) => e.kind === 'opened')!;
    assert.match(
      opened.summary,
      /^opened by probe run \(manual\): reset_at_door deadlock, reconnect_without_cursor dual_negotiation(, .*)? \(seen /,
    );
    assert.ok(!opened.summary.includes(run.id), opened.summary);

    // The alert measure "probes_failing" reads the same stored runs: this server's latest probe failed.
    const db = openDb(readDatabaseConfig({ DATABASE_URL: app.databaseUrl }));
    try {
      const now = Date.now();
      assert.equal(await measure(db.sql, 'probes_failing', { fromMs: now - 3_600_000, toMs: now + 1, server: 'door-naive' }), 1);
      assert.ok(
        Number.isNaN(await measure(db.sql, 'probes_failing', { fromMs: now - 3_600_000, toMs: now + 1, server: 'never-probed' })),
        'no probe: no data',
      );
    } finally {
      await db.close();
    }
  });

  test('a server answering 409 to a second negotiation is a conflict at step 3', async () => {
    const backend = await sim('refusing');
    front = await startConflictFront(backend.port);
    await register('door-conflict', `${front.url}/mcp`);
    const { body: run } = await runNow('door-conflict');
    assert.equal(run.verdict, 'fail');
    assert.equal(stepVerdicts(run).reconnect_without_cursor, 'fail:conflict');
  });

  test('the history API lists runs newest first with the target', async () => {
    await runNow('door-refusing');
    const { status, body } = await json<TProbeHistoryResponse>('/api/v1/servers/door-refusing/probes?limit=5');
    assert.equal(status, 200);
    assert.equal(body.runs.length, 2);
    assert.ok(body.runs[0].startedAt >= body.runs[1].startedAt);
    assert.ok(body.runs.every((r) => r.trigger === 'manual' && r.result.steps.length === 4));
    assert.equal(body.target?.credentialHeader, 'X-Probe-Key');
    assert.ok(!JSON.stringify(body).includes(CREDENTIAL));
    assert.ok(body.runs[0].result.steps[0].transcript.entries.length > 0, 'transcripts are kept');
  });

  test('probe sessions are stored as synthetic sessions, listed with the flag and kept out of /api/v1/stats', async () => {
    const { body: history } = await json<TProbeHistoryResponse>('/api/v1/servers/door-refusing/probes');
    const tokens = history.runs.flatMap((r) => r.result.steps.flatMap((s) => s.tokens));
    assert.ok(tokens.length >= 10, `two runs open at least 5 sessions each (got ${tokens.length})`);
    const only = (await json<TSessionListResponse>('/api/v1/sessions?server=door-refusing&synthetic=only&limit=100')).body.sessions;
    assert.deepEqual(new Set(only.map((s) => s.token)), new Set(tokens));
    assert.ok(only.every((s) => s.synthetic));
    const all = (await json<TSessionListResponse>('/api/v1/sessions?server=door-refusing&limit=100')).body.sessions;
    assert.equal(all.length, only.length, 'listed by default');
    assert.equal((await json<TSessionListResponse>('/api/v1/sessions?server=door-refusing&synthetic=exclude')).body.sessions.length, 0);
    // The probe's reset_at_door session was refused, and its renegotiation names it.
    const resetStep = history.runs[0].result.steps.find((s) => s.step === 'reset_at_door')!;
    const refusedSession = only.find((s) => s.token === resetStep.tokens[0])!;
    assert.equal(refusedSession.boundaryOutcome, 'refused');
    assert.equal(refusedSession.successorToken, resetStep.tokens[1]);
    const naiveSessions = (await json<TSessionListResponse>('/api/v1/sessions?server=door-naive&synthetic=only&flag=naive_resume')).body
      .sessions;
    assert.ok(naiveSessions.length >= 1, 'the naive probe session shows its naive resume');

    // The probed server reporting the same session (its own event ids) keeps it synthetic.
    const token = resetStep.tokens[0];
    const reported = await postEvents(app.url, 'door-refusing', secrets.get('door-refusing')!, [
      { id: 'srv-1', token, type: 'session.opened', at: new Date(Date.parse(resetStep.startedAt)).toISOString(), data: {} },
    ]);
    assert.equal(reported.status, 200);
    const after = (await json<TSessionListResponse>(`/api/v1/sessions?server=door-refusing&token=${encodeURIComponent(token)}`)).body
      .sessions;
    assert.equal(after.length, 1);
    assert.equal(after[0].synthetic, true);

    const stats = (
      await json<{ sessions: number; events: number; boundary: number; refused: number }>('/api/v1/stats?from=now-1d&server=door-refusing')
    ).body;
    assert.deepEqual(
      { sessions: stats.sessions, events: stats.events, boundary: stats.boundary, refused: stats.refused },
      { sessions: 0, events: 0, boundary: 0, refused: 0 },
    );
  });

  test('the schedule runs an enabled target on its own (leader instance)', async () => {
    const refusing = sims[0];
    const made = await json<{ secret: string }>('/api/v1/admin/servers', {
      method: 'POST',
      body: JSON.stringify({ name: 'door-scheduled' }),
    });
    assert.equal(made.status, 201);
    const set = await api('/api/v1/admin/servers/door-scheduled/probe', {
      method: 'PUT',
      body: JSON.stringify({ url: `${refusing.url}/mcp`, intervalSeconds: 1 }),
    });
    assert.equal(set.status, 200);
    const until = Date.now() + 30_000;
    let runs: TProbeRunView[] = [];
    while (Date.now() < until) {
      runs = (await json<TProbeHistoryResponse>('/api/v1/servers/door-scheduled/probes')).body.runs;
      if (runs.length >= 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(runs.length >= 2, `two scheduled runs within 30 s (got ${runs.length})`);
    assert.ok(runs.every((r) => r.trigger === 'schedule' && r.verdict === 'pass'));
    assert.equal((await api('/api/v1/admin/servers/door-scheduled/probe', { method: 'DELETE' })).status, 204);
    assert.equal((await api('/api/v1/admin/servers/door-scheduled/probe', { method: 'DELETE' })).status, 404);
  });

  test("each target's step deadline is its own: a late upgrade offer is inconclusive under 4 s and passes under the default 20 s", async () => {
    const late = await sim('refusing', 4_500);
    const short = await register('door-late', `${late.url}/mcp`, { stepTimeoutSeconds: 4 });
    assert.equal(short.stepTimeoutSeconds, 4);
    const cut = await runNow('door-late');
    assert.equal(cut.status, 200);
    assert.equal(cut.body.verdict, 'inconclusive');
    assert.equal(cut.body.result.steps[0].answer, 'error');
    assert.match(cut.body.result.steps[0].detail ?? '', /no upgrade-accepted before the step deadline/);

    // Omitted, the deadline is the default again (a PUT sets the whole target, like the interval).
    const set = await api('/api/v1/admin/servers/door-late/probe', {
      method: 'PUT',
      body: JSON.stringify({ url: `${late.url}/mcp`, enabled: false, intervalSeconds: 3600 }),
    });
    assert.equal(((await set.json()) as { stepTimeoutSeconds: number }).stepTimeoutSeconds, 20);
    const full = await runNow('door-late');
    assert.equal(full.body.verdict, 'pass', JSON.stringify(stepVerdicts(full.body)));
    for (const stepTimeoutSeconds of [3, 61]) {
      const refused = await api('/api/v1/admin/servers/door-late/probe', {
        method: 'PUT',
        body: JSON.stringify({ url: `${late.url}/mcp`, stepTimeoutSeconds }),
      });
      assert.equal(refused.status, 400, `stepTimeoutSeconds ${stepTimeoutSeconds}`);
    }
  });

  test('a paused target is skipped by the schedule, runs when asked, keeps its credential, and resumes', async () => {
    const refusing = sims[0];
    const history = async (name: string) => (await json<TProbeHistoryResponse>(`/api/v1/servers/${name}/probes`)).body;
    const waitFor = async (what: string, ok: () => Promise<boolean>) => {
      const until = Date.now() + 30_000;
      while (Date.now() < until) {
        if (await ok()) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.fail(`${what} within 30 s`);
    };
    // Paused from the start (enabled: false) with a 1 s interval: due at every tick but for the pause.
    const paused = await register('door-paused', `${refusing.url}/mcp`, {
      enabled: false,
      intervalSeconds: 1,
      credential: { header: 'X-Probe-Key', value: CREDENTIAL },
    });
    assert.equal(paused.enabled, false);
    // A running target set after it: two of its scheduled runs mean the schedule ticked at least twice since the pause.
    await register('door-running', `${refusing.url}/mcp`, { enabled: true, intervalSeconds: 1 });
    await waitFor('two scheduled runs of the running target', async () => (await history('door-running')).runs.length >= 2);
    assert.equal((await history('door-paused')).runs.length, 0, 'the schedule skipped the paused target');

    // Run now is an admin's deliberate check: it runs a paused target and leaves it paused.
    const manual = await runNow('door-paused');
    assert.equal(manual.status, 200);
    assert.equal(manual.body.trigger, 'manual');
    assert.equal(manual.body.verdict, 'pass');
    const after = await history('door-paused');
    assert.equal(after.target?.enabled, false);
    assert.deepEqual(
      after.runs.map((r) => r.trigger),
      ['manual'],
    );

    // Resuming re-sends the target without a credential: the stored one is kept (and still never returned).
    const resumed = await api('/api/v1/admin/servers/door-paused/probe', {
      method: 'PUT',
      body: JSON.stringify({ url: `${refusing.url}/mcp`, intervalSeconds: 1, enabled: true }),
    });
    assert.equal(resumed.status, 200);
    const view = (await resumed.json()) as { enabled: boolean; credentialHeader: string; credentialSet: boolean };
    assert.deepEqual([view.enabled, view.credentialHeader, view.credentialSet], [true, 'X-Probe-Key', true]);
    assert.ok(!JSON.stringify(view).includes(CREDENTIAL));
    await waitFor('a scheduled run after resuming', async () => (await history('door-paused')).runs.some((r) => r.trigger === 'schedule'));
    for (const name of ['door-paused', 'door-running'])
      assert.equal((await api(`/api/v1/admin/servers/${name}/probe`, { method: 'DELETE' })).status, 204);
  });
});
