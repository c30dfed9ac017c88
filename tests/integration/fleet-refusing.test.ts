// End-to-end: reference servers, clients and the fault injector (real HTTP, SSE, WebSocket and
// TCP resets on loopback) against the real built Doorwatch. A refusing fleet.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer } from '@/tests/support/app-server';
import { generateSecret } from '@/lib/contract/server-secret';
import { startFleet, type Fleet } from '@/scripts/sim/fleet';
import { listAllSessions, readStats, SIM_ADMIN_TOKEN } from '@/scripts/sim/doorwatch';
import { compareFigures, figuresFromStats, pickFigures } from '@/scripts/sim/experiment';

const A = { name: 'fleet-ref-a', secret: generateSecret(), mode: 'refusing' as const };
const B = { name: 'fleet-ref-b', secret: generateSecret(), mode: 'refusing' as const };
let app: AppServer;
let fleet: Fleet;
let t0: number;

before(async () => {
  app = await startAppServer({
    env: { DOORWATCH_SERVERS: `${A.name}=${A.secret},${B.name}=${B.secret}`, DOORWATCH_DEADLOCK_THRESHOLD_MS: '1000' },
  });
  t0 = Date.now();
  fleet = await startFleet({
    doorwatchUrl: app.url,
    servers: [A, B],
    clientsPerServer: 10,
    seed: 1234,
    idleTimeoutMs: 1500,
    messageIntervalMs: 100,
    upgradeAfterMs: [300, 900],
    rampMs: 300,
    // Half of the upgrades get a reset 40–90 ms after upgrade-accepted (inside the ~60–140 ms
    // window), plus random resets: a few hundred resets, many of them at the boundary.
    resets: { ratePerSec: 1, afterUpgrade: { share: 0.5, delayMs: [40, 90] }, max: 300 },
  });
  await fleet.resetsDone;
  await fleet.stop();
});

after(async () => {
  await fleet?.stop();
  await app?.stop();
});

test('refusing servers: boundary resumes are refused and renegotiated, nothing deadlocks, Doorwatch agrees exactly', async () => {
  const own = fleet.figures();
  assert.deepEqual(fleet.reporterErrors, []);
  assert.deepEqual(fleet.ledger.anomalies, []);
  assert.equal(own.resets, 300);
  assert.equal(own.drops, 300);
  assert.ok(own.boundary >= 20, `boundary ${own.boundary}`);
  assert.equal(own.refused, own.boundary);
  assert.equal(own.naiveResumes, 0);
  assert.equal(own.deadlocks, 0);
  assert.equal(own.dualNegotiations, 0);
  assert.equal(own.renegotiations, own.refused);
  assert.equal(fleet.ledger.client.renegotiations, own.renegotiations);
  assert.equal(fleet.ledger.client.deadlocks, 0);
  assert.equal(fleet.ledger.client.lost, 0);

  const stats = await readStats(app.url, SIM_ADMIN_TOKEN, { fromMs: t0 - 60_000, toMs: Date.now() + 60_000 });
  assert.deepEqual(compareFigures(pickFigures(own), figuresFromStats(stats)), []);
  assert.equal(stats.refused, own.refused);
  assert.equal(stats.naiveResumes, 0);
  assert.equal(stats.sessions, own.sessions);
  assert.equal(stats.burnedTokenReuses, 0);
  assert.deepEqual(stats.deadlocks, { total: 0, ongoing: 0, unreported: 0, stuckNow: 0, stuckSince: null, idleMs: 0, nextOngoingAt: null });
  // Per server, too (a renegotiation may land on the other refusing server).
  for (const s of [A, B]) {
    const perServer = await readStats(app.url, SIM_ADMIN_TOKEN, { fromMs: t0 - 60_000, toMs: Date.now() + 60_000, server: s.name });
    const mine = fleet.figures([s.name]);
    assert.deepEqual(compareFigures(pickFigures(mine), figuresFromStats(perServer)), [], s.name);
  }
});

test('refusing servers: the session list shows exactly the refused sessions and their renegotiation chains', async () => {
  const refusedTokens = [...fleet.ledger.tokens.values()]
    .filter((r) => r.answer === 'refused')
    .map((r) => r.token)
    .sort();
  const refused = await listAllSessions(app.url, SIM_ADMIN_TOKEN, { flags: ['refused'] });
  assert.deepEqual(refused.map((s) => s.token).sort(), refusedTokens);
  const renegotiated = await listAllSessions(app.url, SIM_ADMIN_TOKEN, { flags: ['renegotiated'] });
  assert.deepEqual(renegotiated.map((s) => s.token).sort(), refusedTokens);
  for (const s of refused) {
    assert.equal(s.state, 'terminated');
    assert.equal(s.boundaryOutcome, 'refused');
    assert.ok(s.flags.includes('boundary'));
    assert.ok(s.successorToken, `${s.token} has a successor`);
    const successor = fleet.ledger.get(s.successorToken!);
    assert.equal(successor?.previousToken, s.token);
    assert.equal(s.successorServer, successor?.server);
    assert.equal(s.renegotiationLatencyMs, successor!.openedAt - fleet.ledger.get(s.token)!.refusedAt!);
  }
  for (const flag of ['deadlock', 'naive_resume', 'dual_negotiation', 'burned_token_reuse']) {
    assert.deepEqual(await listAllSessions(app.url, SIM_ADMIN_TOKEN, { flags: [flag] }), [], flag);
  }
});
