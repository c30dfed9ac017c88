// DOORWATCH_PROBE_ALLOW through the real app (SQLite and PostgreSQL): with the default
// (public,private) a literal loopback or metadata target is refused at registration with
// 400 probe_target_forbidden; a name resolving to loopback (localhost) is registered but every
// run — manual or scheduled — ends as probe_error with the refusal stored, nothing connected; a
// redirect to loopback is not followed. With loopback allowed the same name probes normally.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { Ledger } from '@/scripts/sim/ledger';
import { startSimServer } from '@/scripts/sim/server';
import { classifyAddress } from '@/lib/probes/address-class';
import type { TProbeHistoryResponse, TProbeRunView } from '@/lib/contract/api/probes';

const closers: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

type ErrorBody = { error: { code: string; message: string } };

function client(app: AppServer) {
  const call = async <T>(path: string, init: RequestInit = {}) => {
    const res = await fetch(`${app.url}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as T };
  };
  return {
    call,
    async server(name: string) {
      assert.equal((await call('/api/v1/admin/servers', { method: 'POST', body: JSON.stringify({ name }) })).status, 201);
    },
    setTarget: <T = unknown>(name: string, url: string, extra: Record<string, unknown> = {}) =>
      call<T>(`/api/v1/admin/servers/${name}/probe`, {
        method: 'PUT',
        body: JSON.stringify({ url, enabled: false, intervalSeconds: 3600, ...extra }),
      }),
    runNow: (name: string) => call<TProbeRunView>(`/api/v1/admin/servers/${name}/probe/run`, { method: 'POST' }),
    history: (name: string) => call<TProbeHistoryResponse>(`/api/v1/servers/${name}/probes`),
  };
}

/** A plain HTTP server that counts the connections it accepted. */
async function countingServer(host: string, handler: RequestListener = (_q, s) => s.end()) {
  const server: Server = createServer(handler);
  const seen = { count: 0 };
  server.on('connection', () => seen.count++);
  await new Promise<void>((r) => server.listen(0, host, r));
  closers.push(() => new Promise((r) => server.close(r)));
  return { port: (server.address() as AddressInfo).port, seen };
}

function assertRefusedRun(run: TProbeRunView, host: string) {
  assert.equal(run.verdict, 'inconclusive');
  for (const step of run.result.steps) {
    assert.equal(step.answer, 'error');
    assert.deepEqual(step.refused, { code: 'probe_target_forbidden', host, address: '127.0.0.1', addressClass: 'loopback' });
    assert.match(step.detail ?? '', /DOORWATCH_PROBE_ALLOW is "public,private"; add loopback to it/);
  }
  assert.deepEqual(new Set(run.result.classification.steps.map((s) => s.finding)), new Set(['probe_error']));
}

describe('the default policy (public,private)', () => {
  let app: AppServer;
  let api: ReturnType<typeof client>;

  test('start-up says what probes may reach', async () => {
    app = await startAppServer({
      env: { DOORWATCH_PROBE_ALLOW: '', DOORWATCH_PROBE_TICK_MS: '300', DOORWATCH_PROBE_MIN_INTERVAL_MS: '1000' },
    });
    closers.push(() => app.stop());
    api = client(app);
    assert.match(app.output(), /door probes may connect to private addresses \(DOORWATCH_PROBE_ALLOW=public,private\)/);
  });

  test('literal loopback and metadata targets are refused at registration, in any spelling', async () => {
    await api.server('literal');
    for (const url of [
      'http://127.0.0.1:8080/mcp',
      'http://2130706433:8080/mcp',
      'http://0x7f.1/mcp',
      'http://[::1]/mcp',
      'http://[::ffff:127.0.0.1]/mcp',
      'http://0.0.0.0/mcp',
    ]) {
      const r = await api.setTarget<ErrorBody>('literal', url);
      assert.equal(r.status, 400, url);
      assert.equal(r.body.error.code, 'probe_target_forbidden', url);
      assert.match(r.body.error.message, /a loopback \(this machine\) address, which door probes may not reach: DOORWATCH_PROBE_ALLOW/);
    }
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://metadata.google.internal/computeMetadata/v1/']) {
      const r = await api.setTarget<ErrorBody>('literal', url);
      assert.equal(r.status, 400, url);
      assert.equal(r.body.error.code, 'probe_target_forbidden');
      assert.match(r.body.error.message, /cloud instance-metadata address.*add metadata to it/);
    }
    assert.equal((await api.history('literal')).body.target, null, 'nothing was stored');
    // A private address is allowed by default.
    assert.equal((await api.setTarget('literal', 'http://10.0.0.7:8080/mcp')).status, 200);
  });

  test('a name resolving to loopback: the manual run ends as probe_error, stored with its refusal, nothing connected', async () => {
    const target = await countingServer('127.0.0.1');
    await api.server('by-name');
    assert.equal((await api.setTarget('by-name', `http://localhost:${target.port}/mcp`)).status, 200);
    const run = await api.runNow('by-name');
    assert.equal(run.status, 200);
    assertRefusedRun(run.body, 'localhost');
    const history = await api.history('by-name');
    assert.equal(history.body.runs.length, 1);
    assertRefusedRun(history.body.runs[0], 'localhost');
    assert.equal(target.seen.count, 0);
  });

  test('the schedule refuses it the same way', async () => {
    const target = await countingServer('127.0.0.1');
    await api.server('scheduled');
    assert.equal(
      (await api.setTarget('scheduled', `http://localhost:${target.port}/mcp`, { enabled: true, intervalSeconds: 1 })).status,
      200,
    );
    const until = Date.now() + 30_000;
    let runs: TProbeRunView[] = [];
    while (runs.length === 0 && Date.now() < until) {
      runs = (await api.history('scheduled')).body.runs;
      if (runs.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(runs.length > 0, 'a scheduled run was stored');
    assert.equal(runs[0].trigger, 'schedule');
    assertRefusedRun(runs[0], 'localhost');
    assert.equal(target.seen.count, 0);
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && classifyAddress(i.address) === 'private');
  test(
    'a redirect from a private address to loopback is not followed',
    { skip: external ? false : 'this machine has no private-network address to serve the redirecting front on' },
    async () => {
      const inside = await countingServer('127.0.0.1');
      const front = await countingServer(external!.address, (_req, res) =>
        res.writeHead(302, { location: `http://127.0.0.1:${inside.port}/mcp` }).end(),
      );
      const host = external!.family === 'IPv6' ? `[${external!.address}]` : external!.address;
      await api.server('redirecting');
      assert.equal((await api.setTarget('redirecting', `http://${host}:${front.port}/mcp`)).status, 200);
      const run = await api.runNow('redirecting');
      assert.equal(run.status, 200);
      for (const step of run.body.result.steps) {
        assert.equal(step.status, 302);
        assert.match(step.detail ?? '', /probes never follow redirects/);
      }
      assert.ok(front.seen.count > 0);
      assert.equal(inside.seen.count, 0, 'the loopback server behind the redirect was never reached');
    },
  );
});

describe('loopback allowed', () => {
  test('the same name probes normally', async () => {
    const app = await startAppServer({ env: { DOORWATCH_PROBE_ALLOW: 'public,private,loopback' } });
    closers.push(() => app.stop());
    assert.match(app.output(), /door probes may connect to private, loopback addresses/);
    const sim = await startSimServer({
      name: 'allowed',
      mode: 'refusing',
      reporter: null,
      ledger: new Ledger(),
      upgradeAfterMs: () => 30,
      messageIntervalMs: 10,
    });
    closers.push(() => sim.close());
    const api = client(app);
    await api.server('allowed');
    assert.equal((await api.setTarget('allowed', `http://127.0.0.1:${sim.port}/mcp`)).status, 200, 'the literal is allowed');
    assert.equal((await api.setTarget('allowed', `http://localhost:${sim.port}/mcp`)).status, 200);
    const run = await api.runNow('allowed');
    assert.equal(run.status, 200);
    assert.equal(run.body.verdict, 'pass', JSON.stringify(run.body.result.classification));
    assert.ok(run.body.result.steps.every((s) => s.refused === undefined));
    assert.match(run.body.result.steps[0].transcript.entries[0].text, /^dns localhost → 127\.0\.0\.1 \(loopback\)/);
  });
});
