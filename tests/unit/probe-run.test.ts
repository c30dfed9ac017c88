// Door probes against the reference sim server over loopback: every step classified right in
// refusing and naive mode, nothing left open afterwards, redirects never followed, secrets redacted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ledger } from '@/scripts/sim/ledger';
import { startSimServer, type ServerMode, type SimServer } from '@/scripts/sim/server';
import { runProbe } from '@/lib/probes/run-probe';
import { ZProbeResult, type ProbeResult } from '@/lib/contract/probe-result';
import { TargetLimiter } from '@/lib/probes/target-limiter';
import { startConflictFront } from '@/tests/support/conflict-front';
import type { ObservedAnswer, ProbeStepName } from '@/lib/contract/probe-result';

const SECRET = 'probe-secret-7a41c9';
// The servers under test listen on loopback, which DOORWATCH_PROBE_ALLOW's default does not allow.
const OPTIONS = { idleMs: 2_000, stepTimeoutMs: 8_000, resetDelayMs: 40, allow: ['public', 'private', 'loopback'] as const };

async function simServer(mode: ServerMode): Promise<SimServer> {
  // The probe's credential must not be leaked by the server either: it checks nothing, the
  // test checks that the transcript never shows it.
  return startSimServer({
    name: `probe-${mode}`,
    mode,
    reporter: null,
    ledger: new Ledger(),
    upgradeAfterMs: () => 30,
    messageIntervalMs: 10,
  });
}

/** The server ends a WebSocket session when the close handshake lands: give it a bounded moment. */
async function liveSessionsSettled(server: SimServer): Promise<number> {
  const until = performance.now() + 2_000;
  while (server.liveSessions() > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
  return server.liveSessions();
}

/** TCP sockets open in this process (both ends of loopback connections). */
const tcpSockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;

/** Waits (bounded) for the socket count to come back to `baseline`; returns the count then. */
async function socketsSettled(baseline: number): Promise<number> {
  const until = performance.now() + 2_000;
  while (tcpSockets() > baseline && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
  return tcpSockets();
}

/** Open TCP connections to a server, counted at the server side. */
async function openConnections(server: Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
}

function answers(result: ProbeResult): Record<ProbeStepName, ObservedAnswer> {
  return Object.fromEntries(result.steps.map((s) => [s.step, s.answer])) as Record<ProbeStepName, ObservedAnswer>;
}

/** A result is stored and served as JSON: it must survive that and match its contract. */
function assertContract(result: ProbeResult): void {
  assert.deepEqual(ZProbeResult.parse(JSON.parse(JSON.stringify(result))), result);
}

function assertNoSecret(result: ProbeResult): void {
  const text = JSON.stringify(result);
  assert.ok(!text.includes(SECRET), 'the credential value appears in the result');
  assert.ok(text.includes('[redacted]'), 'the credential header is shown redacted');
}

describe('door probe against the reference server', () => {
  const servers: SimServer[] = [];
  after(async () => {
    for (const s of servers) await s.close();
  });

  test('refusing server: every step passes, the refusal is renegotiated, nothing stays open', async () => {
    const server = await simServer('refusing');
    servers.push(server);
    const sockets = tcpSockets();
    const result = await runProbe(
      { url: `${server.url}/mcp`, credential: { header: 'X-Probe-Key', value: SECRET } },
      { ...OPTIONS, limiter: new TargetLimiter() },
    );
    assertContract(result);
    assert.deepEqual(answers(result), {
      healthy: 'upgraded',
      reset_at_door: 'superseded',
      reconnect_without_cursor: 'superseded',
      cursor_before_door: 'resumed',
    });
    assert.equal(result.classification.verdict, 'pass', JSON.stringify(result.classification));
    assert.deepEqual(
      result.classification.steps.map((c) => c.finding),
      ['upgraded', 'refused', 'refused', 'resumed'],
    );
    const [healthy, atDoor, noCursor, beforeDoor] = result.steps;
    assert.equal(healthy.handshakeStatus, 101);
    assert.equal(atDoor.resume?.lastEventId, atDoor.doorEventId);
    assert.equal(atDoor.renegotiation?.ok, true, atDoor.renegotiation?.detail ?? '');
    assert.equal(atDoor.tokens.length, 2, 'the probed session and its renegotiated successor');
    assert.equal(new Set(result.steps.flatMap((s) => s.tokens)).size, 5, 'every step opens its own sessions');
    assert.equal(noCursor.resume?.lastEventId, null);
    assert.equal(beforeDoor.resume?.lastEventId, beforeDoor.doorEventId! - 1);
    assert.equal(beforeDoor.handshakeStatus, 101, 'the replayed upgrade-accepted still upgrades');
    for (const s of result.steps) assert.ok(s.latencyMs !== null && s.latencyMs >= 0, `${s.step} has a latency`);
    assertNoSecret(result);
    assert.equal(await liveSessionsSettled(server), 0, 'the probe left sessions open on the server');
    assert.equal(await socketsSettled(sockets), sockets, 'the probe left sockets open');
  });

  test('naive server: idle stream and dual negotiation found in seconds, sessions closed', async () => {
    const server = await simServer('naive');
    servers.push(server);
    const sockets = tcpSockets();
    const result = await runProbe(
      { url: `${server.url}/mcp`, credential: { header: 'Authorization', value: `Bearer ${SECRET}` } },
      { ...OPTIONS, limiter: new TargetLimiter() },
    );
    assertContract(result);
    assert.deepEqual(answers(result), {
      healthy: 'upgraded',
      reset_at_door: 'idle_stream',
      reconnect_without_cursor: 'second_upgrade',
      cursor_before_door: 'resumed',
    });
    assert.equal(result.classification.verdict, 'fail');
    assert.deepEqual(
      result.classification.steps.map((c) => [c.verdict, c.finding]),
      [
        ['pass', 'upgraded'],
        ['fail', 'deadlock'],
        ['fail', 'dual_negotiation'],
        ['pass', 'resumed'],
      ],
    );
    const [, atDoor, noCursor] = result.steps;
    assert.equal(atDoor.latencyMs! >= OPTIONS.idleMs, true);
    assert.equal(atDoor.renegotiation, null);
    assert.equal(noCursor.handshakeStatus, 409, 'the second negotiation is rejected by the WebSocket layer');
    assert.ok(noCursor.transcript.entries.some((e) => e.dir === '<' && e.text.startsWith('HTTP/1.1 409')));
    assertNoSecret(result);
    assert.equal(await liveSessionsSettled(server), 0, 'the probe left sessions open on the server');
    assert.equal(await socketsSettled(sockets), sockets, 'the probe left sockets open');
  });

  test('a server that answers 409 to a second negotiation: conflict, not a refusal', async () => {
    const server = await simServer('refusing');
    servers.push(server);
    const front = await startConflictFront(server.port);
    try {
      const result = await runProbe({ url: `${front.url}/mcp` }, { ...OPTIONS, limiter: new TargetLimiter() });
      assertContract(result);
      assert.deepEqual(answers(result), {
        healthy: 'upgraded',
        reset_at_door: 'superseded',
        reconnect_without_cursor: 'conflict',
        cursor_before_door: 'resumed',
      });
      assert.equal(result.classification.verdict, 'fail');
      const noCursor = result.classification.steps[2];
      assert.deepEqual([noCursor.verdict, noCursor.finding, noCursor.expected], ['fail', 'conflict', 'superseded']);
      assert.equal(result.steps[2].status, 409);
      assert.equal(front.conflicts, 1);
      assert.equal(await liveSessionsSettled(server), 0, 'the probe left sessions open on the server');
    } finally {
      await front.close();
    }
  });
});

describe('door probe safety', () => {
  let redirector: Server;
  let elsewhere: Server;
  const elsewhereHits: IncomingMessage[] = [];
  let base = '';

  before(async () => {
    elsewhere = createServer((req, res) => {
      elsewhereHits.push(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end();
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/mcp`;
    redirector = createServer((_req, res) => res.writeHead(302, { location: target, connection: 'close' }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
  });
  after(async () => {
    redirector.closeAllConnections();
    elsewhere.closeAllConnections();
    await new Promise((r) => redirector.close(r));
    await new Promise((r) => elsewhere.close(r));
  });

  test('a redirect is an error answer and is never followed', async () => {
    const result = await runProbe({ url: `${base}/mcp` }, { ...OPTIONS, limiter: new TargetLimiter() });
    assertContract(result);
    for (const s of result.steps) {
      assert.equal(s.answer, 'error');
      assert.equal(s.status, 302);
      assert.match(s.detail ?? '', /redirect \(302 to http:\/\/127\.0\.0\.1:\d+\/mcp\); probes never follow redirects/);
    }
    assert.equal(result.classification.verdict, 'inconclusive');
    assert.equal(elsewhereHits.length, 0, 'the probe followed a redirect');
    assert.equal(await openConnections(redirector), 0);
  });

  test('an unreachable target is an error per step, quickly', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const result = await runProbe({ url: `http://127.0.0.1:${port}/mcp` }, { ...OPTIONS, limiter: new TargetLimiter() });
    assertContract(result);
    assert.deepEqual(new Set(result.steps.map((s) => s.answer)), new Set(['error']));
    assert.match(result.steps[0].detail ?? '', /ECONNREFUSED/);
  });

  test('invalid targets are refused before any request', async () => {
    await assert.rejects(runProbe({ url: 'ftp://example.com/mcp' }), { name: 'ProbeTargetError', code: 'invalid_probe_url' });
    await assert.rejects(runProbe({ url: 'http://user:pw@example.com/mcp' }), { code: 'invalid_probe_url' });
    await assert.rejects(runProbe({ url: '/mcp' }), { code: 'invalid_probe_url' });
    await assert.rejects(runProbe({ url: 'http://127.0.0.1:1/mcp', credential: { header: 'Mcp-Session-Id', value: 'x' } }), {
      code: 'invalid_probe_url',
    });
    await assert.rejects(runProbe({ url: 'http://127.0.0.1:1/mcp' }, { idleMs: 5_000, stepTimeoutMs: 5_000 }), RangeError);
  });
});
