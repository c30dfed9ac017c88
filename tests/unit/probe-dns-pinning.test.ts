// DOORWATCH_PROBE_ALLOW at run time, over real sockets: a name is resolved once per step, every
// address it resolves to is checked, and the step's HTTP, SSE, DELETE and WebSocket connections
// go only to those addresses (a name nobody can resolve still reaches the probed server through
// the pin); a refused address ends the step before any connection; a redirect to a refused
// address is not followed. `localhost` is resolved by the system resolver; the resolver option
// stands in for DNS only where a test needs answers no real name gives here (several classes).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { Ledger } from '@/scripts/sim/ledger';
import { startSimServer, type SimServer } from '@/scripts/sim/server';
import { runProbe } from '@/lib/probes/run-probe';
import { resolveTarget } from '@/lib/probes/resolve-target';
import { classifyAddress } from '@/lib/probes/address-class';
import { TargetLimiter } from '@/lib/probes/target-limiter';
import { ZProbeResult, type ProbeResult } from '@/lib/contract/probe-result';

const OPTIONS = { idleMs: 1_500, stepTimeoutMs: 6_000, resetDelayMs: 40 };
const closers: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

async function sim(): Promise<SimServer> {
  const server = await startSimServer({
    name: 'pinned',
    mode: 'refusing',
    reporter: null,
    ledger: new Ledger(),
    upgradeAfterMs: () => 30,
    messageIntervalMs: 10,
  });
  closers.push(() => server.close());
  return server;
}

const portOf = (s: SimServer) => new URL(s.url).port;

/** Counts TCP connections a server accepted. */
function countConnections(server: Server): { count: number } {
  const seen = { count: 0 };
  server.on('connection', () => seen.count++);
  return seen;
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((r) => server.listen(0, host, r));
  closers.push(() => new Promise((r) => server.close(r)));
  return (server.address() as AddressInfo).port;
}

function assertContract(result: ProbeResult): void {
  assert.deepEqual(ZProbeResult.parse(JSON.parse(JSON.stringify(result))), result);
}

describe('resolveTarget', () => {
  const fixed = (addresses: LookupAddress[]) => async (): Promise<LookupAddress[]> => addresses;

  test('every resolved address is checked: one refused address refuses the name', async () => {
    const resolver = fixed([
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    const r = await resolveTarget(new URL('https://mixed.test/mcp'), ['public'], 1_000, resolver);
    assert.equal(r.kind, 'refused');
    assert.deepEqual(r.kind === 'refused' && r.refusal, {
      code: 'probe_target_forbidden',
      host: 'mixed.test',
      address: '127.0.0.1',
      addressClass: 'loopback',
    });
  });

  test('the pinned lookup answers only the probed host, from the checked addresses, per family', async () => {
    const resolver = fixed([
      { address: '2606:4700:4700::1111', family: 6 },
      { address: '1.1.1.1', family: 4 },
    ]);
    const r = await resolveTarget(new URL('https://Pinned.test/mcp'), ['public'], 1_000, resolver);
    assert.equal(r.kind, 'pinned');
    if (r.kind !== 'pinned') return;
    const ask = (host: string, options: object) =>
      new Promise<unknown>((resolve) => r.lookup(host, options, (err, address, family) => resolve(err ? err.code : [address, family])));
    assert.deepEqual(await ask('pinned.test', { all: true }), [
      [
        { address: '2606:4700:4700::1111', family: 6 },
        { address: '1.1.1.1', family: 4 },
      ],
      undefined,
    ]);
    assert.deepEqual(await ask('pinned.test', { family: 4 }), ['1.1.1.1', 4]);
    assert.deepEqual(await ask('other.test', {}), 'ENOTFOUND', 'another name is never resolved through the pin');
  });

  test('a resolver that does not answer in time is an error, not a hang', async () => {
    const r = await resolveTarget(new URL('http://slow.test/'), ['public'], 50, () => new Promise(() => undefined));
    assert.deepEqual(r, { kind: 'error', detail: 'resolving slow.test: no answer within 50 ms' });
  });
});

describe('runProbe and DOORWATCH_PROBE_ALLOW', () => {
  test('a name resolving to loopback (real DNS: localhost) is refused without a connection when loopback is not allowed', async () => {
    const server = createServer((_req, res) => res.end());
    const seen = countConnections(server);
    const port = await listen(server, '127.0.0.1');
    const result = await runProbe(
      { url: `http://localhost:${port}/mcp` },
      { ...OPTIONS, allow: ['public', 'private'], limiter: new TargetLimiter() },
    );
    assertContract(result);
    assert.equal(seen.count, 0, 'nothing connected to the refused address');
    assert.equal(result.classification.verdict, 'inconclusive');
    for (const step of result.steps) {
      assert.equal(step.answer, 'error');
      assert.deepEqual(step.refused, { code: 'probe_target_forbidden', host: 'localhost', address: '127.0.0.1', addressClass: 'loopback' });
      assert.match(step.detail ?? '', /DOORWATCH_PROBE_ALLOW is "public,private"; add loopback/);
      assert.match(step.transcript.entries[0].text, /^not connecting: "localhost" resolves to 127\.0\.0\.1/);
    }
    assert.deepEqual(new Set(result.classification.steps.map((s) => s.finding)), new Set(['probe_error']));
  });

  test('the same name probes normally when loopback is allowed', async () => {
    const server = await sim();
    const result = await runProbe(
      { url: `http://localhost:${portOf(server)}/mcp` },
      { ...OPTIONS, allow: ['public', 'loopback'], limiter: new TargetLimiter() },
    );
    assert.equal(result.classification.verdict, 'pass', JSON.stringify(result.classification));
    assert.ok(result.steps.every((s) => s.refused === undefined));
    assert.match(
      result.steps[0].transcript.entries[0].text,
      /^dns localhost → 127\.0\.0\.1 \(loopback\): allowed by DOORWATCH_PROBE_ALLOW/,
    );
  });

  test('one resolution per step; every request and the WebSocket upgrade connect to the pinned address', async () => {
    const server = await sim();
    const asked: string[] = [];
    // `.test` names never resolve: a request that looked the name up again would fail.
    const resolver = async (host: string): Promise<LookupAddress[]> => {
      asked.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const result = await runProbe(
      { url: `http://doorwatch-pinned.test:${portOf(server)}/mcp` },
      { ...OPTIONS, allow: ['loopback'], resolver, limiter: new TargetLimiter() },
    );
    assert.equal(result.classification.verdict, 'pass', JSON.stringify(result.classification));
    assert.deepEqual(asked, Array(4).fill('doorwatch-pinned.test'), 'resolved once per step');
    const healthy = result.steps[0].transcript.entries.map((e) => e.text).join('\n');
    assert.match(healthy, /host: doorwatch-pinned\.test:\d+/, 'the Host header keeps the name');
    assert.match(healthy, /101 Switching Protocols/);
  });

  test('a literal metadata address is refused even with link-local and everything else allowed', async () => {
    const result = await runProbe(
      { url: 'http://169.254.169.254/latest/meta-data/' },
      { ...OPTIONS, allow: ['public', 'private', 'loopback', 'link-local'], limiter: new TargetLimiter() },
    );
    for (const step of result.steps) {
      assert.equal(step.refused?.addressClass, 'metadata');
      assert.match(step.detail ?? '', /cloud credentials are served there/);
    }
  });

  // A front on this machine's own non-loopback address redirects to a loopback server.
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && classifyAddress(i.address) !== 'loopback' && !i.address.startsWith('fe80'));
  test(
    'a redirect to a refused address is not followed',
    { skip: external ? false : 'this machine has no non-loopback address to serve the redirecting front on' },
    async () => {
      const inside = createServer((_req, res) => res.end('reached'));
      const insideSeen = countConnections(inside);
      const insidePort = await listen(inside, '127.0.0.1');
      const front = createServer((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${insidePort}/mcp` }).end());
      const frontPort = await listen(front, external!.address);
      const cls = classifyAddress(external!.address)!;
      assert.notEqual(cls, 'reserved');
      const host = external!.family === 'IPv6' ? `[${external!.address}]` : external!.address;
      const result = await runProbe(
        { url: `http://${host}:${frontPort}/mcp` },
        { ...OPTIONS, allow: [cls as 'public' | 'private' | 'link-local'], limiter: new TargetLimiter() },
      );
      for (const step of result.steps) {
        assert.equal(step.answer, 'error');
        assert.equal(step.status, 302);
        assert.match(step.detail ?? '', /answered a redirect \(302 to http:\/\/127\.0\.0\.1:\d+\/mcp\); probes never follow redirects/);
      }
      assert.equal(insideSeen.count, 0, 'the loopback server behind the redirect was never reached');
    },
  );
});
