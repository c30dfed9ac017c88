// One instance leads each scheduled job: on PostgreSQL two leases for the same job never both
// hold, a released (or dropped) lease is taken by the other at its next try, and jobs run only
// while leading. On SQLite the one instance always leads. A holder whose lock connection goes
// silent (a network partition: no error ever arrives) stops leading at its next check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { createLeaderLease } from '@/lib/instance/leader-lease';
import { startPeriodicJob } from '@/lib/instance/periodic-job';
import { leadershipByJob } from '@/lib/instance/leadership';
import { createTestDatabase, testProvider } from '../support/test-database';
import { startTcpProxy } from '../support/tcp-proxy';

test('two instances: exactly one leads a job; the other takes over when it lets go', async () => {
  const db = await createTestDatabase();
  const config = readDatabaseConfig({ DATABASE_URL: db.url });
  const a = createLeaderLease(config, 'alerts');
  const b = createLeaderLease(config, 'alerts');
  const other = createLeaderLease(config, 'probes');
  try {
    const first = await a.acquire();
    const second = await b.acquire();
    if (config.provider === 'sqlite') {
      assert.equal(first && second, true, 'SQLite is one instance: it always leads');
      return;
    }
    assert.equal(first, true);
    assert.equal(second, false, 'a second lease on the same job must not hold');
    assert.equal(await a.acquire(), true, 'the holder keeps its lease');
    assert.equal(await other.acquire(), true, 'another job has its own lease');
    await a.release();
    assert.equal(await b.acquire(), true, 'a released lease is taken by the other instance');
    assert.equal(await a.acquire(), false);
  } finally {
    await Promise.all([a.release(), b.release(), other.release()]);
    await db.drop();
  }
});

test('a periodic job runs only while leading and never overlaps itself', async () => {
  const db = await createTestDatabase();
  const config = readDatabaseConfig({ DATABASE_URL: db.url });
  const holder = createLeaderLease(config, 'probes');
  let runs = 0;
  let concurrent = 0;
  let maxConcurrent = 0;
  const job = startPeriodicJob({
    name: 'test job',
    intervalMs: 3_600_000,
    firstRunAfterMs: 3_600_000,
    lease: createLeaderLease(config, 'probes'),
    run: async () => {
      runs++;
      maxConcurrent = Math.max(maxConcurrent, ++concurrent);
      await new Promise((r) => setTimeout(r, 50));
      concurrent--;
    },
  });
  try {
    if (config.provider === 'postgresql') {
      assert.equal(await holder.acquire(), true);
      assert.equal(await job.runNow(), false, 'another instance leads: the job must not run');
      assert.equal(runs, 0);
      await holder.release();
    }
    const results = await Promise.all([job.runNow(), job.runNow(), job.runNow()]);
    assert.deepEqual(results, [true, true, true], 'calls during a run join that run');
    assert.equal(runs, 1);
    assert.equal(maxConcurrent, 1);
    assert.equal(await job.runNow(), true);
    assert.equal(runs, 2);
  } finally {
    await job.stop();
    await holder.release();
    await db.drop();
  }
});

test(
  'a leader whose lock connection is cut without a word stops leading at its next check, and the other takes over',
  { skip: testProvider() !== 'postgresql' && 'a silent cut of the lock connection needs PostgreSQL: runs in the PostgreSQL pass' },
  async () => {
    const db = await createTestDatabase();
    const target = new URL(db.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(db.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const a = createLeaderLease(readDatabaseConfig({ DATABASE_URL: viaProxy.toString() }), 'alerts', { checkTimeoutMs: 500 });
    const b = createLeaderLease(readDatabaseConfig({ DATABASE_URL: db.url }), 'alerts', { checkTimeoutMs: 500 });
    try {
      assert.equal(await a.acquire(), true);
      assert.equal(await b.acquire(), false);
      assert.equal(leadershipByJob().get('alerts'), false, "the last answer in this process was b's");
      proxy.silence();
      // The database ends a's session (the proxy closed its side), so the lock is free: b takes it.
      const deadline = Date.now() + 20_000;
      while (!(await b.acquire())) {
        assert.ok(Date.now() < deadline, 'the database never freed the lock of the cut connection');
        await new Promise((r) => setTimeout(r, 50));
      }
      // a heard nothing; before the check it believed itself leader until the end of time.
      assert.equal(await a.acquire(), false, 'a leader whose lock connection is dead must stop leading');
      assert.equal(leadershipByJob().get('alerts'), false);
      proxy.up();
      assert.equal(await a.acquire(), false, 'once reconnected, a finds the lock taken');
      await b.release();
      assert.equal(await a.acquire(), true, 'and takes it when it is free again');
    } finally {
      await Promise.all([a.release(), b.release()]);
      await proxy.close();
      await db.drop();
    }
  },
);

test(
  'a follower tries the lease more often than its job runs: a job with an hour between runs is taken over within seconds',
  { skip: testProvider() !== 'postgresql' && 'a lease held by another instance needs PostgreSQL: runs in the PostgreSQL pass' },
  async () => {
    const db = await createTestDatabase();
    const config = readDatabaseConfig({ DATABASE_URL: db.url });
    const holder = createLeaderLease(config, 'retention');
    let runs = 0;
    assert.equal(await holder.acquire(), true);
    const job = startPeriodicJob({
      name: 'hourly job',
      intervalMs: 3_600_000,
      firstRunAfterMs: 50,
      leaseCheckMs: 200,
      lease: createLeaderLease(config, 'retention'),
      run: async () => void runs++,
    });
    try {
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(runs, 0, 'another instance leads');
      await holder.release(); // the leader dies
      // Before: the follower's next look at the lease was its next run, an hour later.
      const deadline = Date.now() + 20_000;
      while (runs === 0) {
        assert.ok(Date.now() < deadline, 'the follower never took the lease over');
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(runs, 1, 'a new leader runs the job at once, then waits its interval');
      await new Promise((r) => setTimeout(r, 600));
      assert.equal(runs, 1);
    } finally {
      await job.stop();
      await holder.release();
      await db.drop();
    }
  },
);
