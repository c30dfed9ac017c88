// End-to-end: reference servers, clients and the fault injector (real HTTP, SSE, WebSocket and
// TCP resets on loopback) against the real built Doorwatch. A naive fleet: both failure variants.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer } from '@/tests/support/app-server';
import { generateSecret } from '@/lib/contract/server-secret';
import { startFleet, type Fleet } from '@/scripts/sim/fleet';
import { listAllSessions, readStats, SIM_ADMIN_TOKEN } from '@/scripts/sim/doorwatch';
import { compareFigures, figuresFromStats, pickFigures } from '@/scripts/sim/experiment';
import { deadlockOf } from '@/scripts/sim/ledger';

const N = { name: 'fleet-naive', secret: generateSecret(), mode: 'naive' as const };
let app: AppServer;
let fleet: Fleet;
let t0: number;

before(async () => {
  app = await startAppServer({ env: { DOORWATCH_SERVERS: `${N.name}=${N.secret}`, DOORWATCH_DEADLOCK_THRESHOLD_MS: '1000' } });
  t0 = Date.now();
  fleet = await startFleet({
    doorwatchUrl: app.url,
    servers: [N],
    clientsPerServer: 20,
    seed: 4321,
    idleTimeoutMs: 1500,
    messageIntervalMs: 100,
    upgradeAfterMs: [300, 900],
    rampMs: 300,
    noLastEventIdShare: 0.3,
    resets: { ratePerSec: 1, afterUpgrade: { share: 0.5, delayMs: [40, 90] }, max: 300 },
  });
  await fleet.resetsDone;
  await fleet.stop(); // waits for every deadlock to run into the idle timeout
});

after(async () => {
  await fleet?.stop();
  await app?.stop();
});

const tokensWhere = (pred: (r: NonNullable<ReturnType<Fleet['ledger']['get']>>) => boolean) =>
  [...fleet.ledger.tokens.values()]
    .filter(pred)
    .map((r) => r.token)
    .sort();

test('naive server: boundary resumes are accepted, deadlock until the idle timeout, dual negotiations get 409s; Doorwatch agrees exactly', async () => {
  const own = fleet.figures();
  assert.deepEqual(fleet.reporterErrors, []);
  assert.equal(own.resets, 300);
  assert.equal(own.drops, 300);
  assert.ok(own.boundary >= 20, `boundary ${own.boundary}`);
  assert.equal(own.naiveResumes, own.boundary);
  assert.equal(own.refused, 0);
  assert.equal(own.renegotiations, 0);
  assert.equal(own.deadlocks, own.boundary, 'every naive boundary resume is a deadlock');
  // ... and each one lasted until the idle timeout: the client waited, nothing (not the drain
  // in stop(), not a shutdown) closed the session under it.
  assert.deepEqual(
    tokensWhere((r) => deadlockOf(r) !== null && r.timedOutAt === null),
    [],
    'deadlocks ended other than by the idle timeout',
  );
  assert.equal(fleet.ledger.client.deadlocks, own.deadlocks);
  assert.ok(own.dualNegotiations >= 1, `dual ${own.dualNegotiations}`);
  assert.ok(fleet.ledger.client.dualRejections >= 1, 'some second handshake was answered 409');
  assert.equal(fleet.ledger.client.lost, 0);

  const stats = await readStats(app.url, SIM_ADMIN_TOKEN, { fromMs: t0 - 60_000, toMs: Date.now() + 60_000, server: N.name });
  assert.deepEqual(compareFigures(pickFigures(own), figuresFromStats(stats)), []);
  assert.equal(stats.naiveResumes, own.naiveResumes);
  assert.equal(stats.refused, 0);
  assert.equal(stats.sessions, own.sessions);
  assert.equal(stats.deadlocks.ongoing, 0, 'all deadlocks ended before reading back');
  assert.ok(stats.deadlocks.idleMs >= own.deadlocks * 1000, `idle ${stats.deadlocks.idleMs}`);
});

test("naive server: the session list flags exactly the fleet's naive_resume, deadlock and dual_negotiation sessions", async () => {
  const naive = await listAllSessions(app.url, SIM_ADMIN_TOKEN, { flags: ['naive_resume'] });
  assert.deepEqual(
    naive.map((s) => s.token).sort(),
    tokensWhere((r) => r.answer === 'naive_resume'),
  );
  const deadlocked = await listAllSessions(app.url, SIM_ADMIN_TOKEN, { flags: ['deadlock'] });
  assert.deepEqual(
    deadlocked.map((s) => s.token).sort(),
    tokensWhere((r) => deadlockOf(r) !== null),
  );
  for (const s of deadlocked) {
    assert.equal(s.deadlock?.ongoing, false);
    const own = deadlockOf(fleet.ledger.get(s.token)!)!;
    assert.equal(Date.parse(s.deadlock!.startedAt), own.startedAt, `${s.token}: start`);
    assert.equal(Date.parse(s.deadlock!.endedAt!), own.endedAt, `${s.token}: end`);
    assert.equal(s.state, 'terminated');
    // Not a fixed lower bound: the idle deadline runs from the server's last write (the
    // upgrade-accepted), so a resume answered late on a loaded machine deadlocks for less.
    assert.equal(s.deadlock!.durationMs, own.endedAt - own.startedAt, `${s.token}: duration`);
  }
  const dual = await listAllSessions(app.url, SIM_ADMIN_TOKEN, { flags: ['dual_negotiation'] });
  assert.deepEqual(
    dual.map((s) => s.token).sort(),
    tokensWhere((r) => r.dual),
  );
  // Both variants at once: a dual negotiation is also a naive resume and a deadlock.
  assert.ok(dual.every((s) => s.flags.includes('naive_resume') && s.flags.includes('deadlock')));
  assert.deepEqual(await listAllSessions(app.url, SIM_ADMIN_TOKEN, { flags: ['refused'] }), []);
  assert.deepEqual(await listAllSessions(app.url, SIM_ADMIN_TOKEN, { flags: ['renegotiated'] }), []);
});
