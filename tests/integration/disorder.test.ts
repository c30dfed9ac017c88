// Disorder and concurrency: 10,000 small random timelines delivered shuffled, with repeats (single
// events again in later batches, whole batches twice, repeats inside one batch), split into
// batches of random size, to two instances on one database at once (on PostgreSQL, the
// production topology; on SQLite, two processes on one file). The result must be exactly what
// in-order delivery gives: every session row equal to `summarize` of the ordered record, the
// rollups and the stats endpoint equal to the sums. (tests/integration/multi-instance.test.ts
// compares two instances with a single one on hand-made chains.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateSecret } from '@/lib/contract/server-secret';
import { createRng } from '@/lib/wire/random';
import { TEST_ADMIN_TOKEN, startAppServer, type AppServer } from '../support/app-server';
import { createTestDatabase, testProvider, type TestDatabase } from '../support/test-database';
import { T0, randomTimelines, shuffled, type SentEvent } from '../support/random-timelines';
import { brokenPromises, deliverBatches, senderServers, splitIntoBatches, statusCounts, type Batch } from '../support/retrying-sender';
import { assertStoredMatches } from '../support/expected-state';

const SERVERS = ['alpha', 'beta', 'gamma', 'delta'];
const { secrets, env } = senderServers(SERVERS, generateSecret);

let db: TestDatabase;
let a: AppServer;
let b: AppServer;

before(async () => {
  db = await createTestDatabase();
  // Together on PostgreSQL (start-up steps take turns under advisory locks); one after the other on SQLite.
  if (db.provider === 'postgresql') {
    [a, b] = await Promise.all([0, 1].map(() => startAppServer({ databaseUrl: db.url, env })));
  } else {
    a = await startAppServer({ databaseUrl: db.url, env });
    b = await startAppServer({ databaseUrl: db.url, env });
  }
});
after(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
});

/** The ordered record shuffled, with repeats: ~10 % of events again later, repeats inside batches, ~5 % of batches twice. */
function disorderly(ordered: readonly SentEvent[], seed: number): Batch[] {
  const rand = createRng(seed);
  const stream = shuffled([...ordered, ...ordered.filter(() => rand() < 0.1)], seed + 1);
  const batches = splitIntoBatches(stream, 40, rand).map((batch) =>
    rand() < 0.05 && batch.events.length > 1 ? { ...batch, events: [...batch.events, batch.events[0]] } : batch,
  );
  return shuffled([...batches, ...batches.filter(() => rand() < 0.05)], seed + 2);
}

test(`${testProvider()}: 10,000 timelines shuffled, repeated and split across two instances equal in-order delivery`, async () => {
  const timelines = randomTimelines({ count: 10_000, seed: 4001, prefix: 'dis', servers: SERVERS, maxSteps: 2, spreadMs: 60 * 60_000 });
  const ordered = timelines.flat();
  const batches = disorderly(ordered, 4002);
  const sent = batches.reduce((n, x) => n + x.events.length, 0);
  const started = performance.now();
  const log = await deliverBatches(batches, { url: (i) => (i % 2 === 0 ? a : b).url, secrets, concurrency: 6, deadlineMs: 240_000 });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `disorder: ${timelines.length} timelines, ${ordered.length} events, ${sent} sent (repeats included) in ${batches.length} batches to 2 instances, ${Math.round(seconds)} s (${Math.round(sent / seconds)} ev/s), answers ${JSON.stringify(statusCounts(log.answers))}`,
  );

  assert.deepEqual(log.failed, []);
  assert.deepEqual(brokenPromises(log.answers), []);
  assert.deepEqual(
    log.answers.filter((x) => x.status === 0),
    [],
    'no request went unanswered',
  );
  assert.equal(log.accepted, ordered.length, 'each event accepted exactly once over all answers');
  assert.equal(log.accepted + log.duplicates, sent);
  // The oracle is the ORDERED record: in-order delivery to one instance gives exactly this.
  const want = await assertStoredMatches(db.query, ordered, 'dis-', {
    url: a.url,
    token: TEST_ADMIN_TOKEN,
    fromMs: T0 - 3_600_000,
    toMs: T0 + 86_400_000,
  });
  assert.equal(want.sessions.length, timelines.length);
  assert.ok(
    want.sessions.some((s) => s.fRenegotiated === 1) &&
      want.sessions.some((s) => s.fRefused === 1) &&
      want.sessions.some((s) => s.fNaiveResume === 1),
    'the timelines cover renegotiations, refusals and naive resumes',
  );
  // Both instances answer the same stats (but for the reader's clock: now, and ongoing deadlocks' idle time up to now).
  const stats = async (app: AppServer) => {
    const res = await fetch(
      `${app.url}/api/v1/stats?from=${new Date(T0 - 3_600_000).toISOString()}&to=${new Date(T0 + 86_400_000).toISOString()}`,
      { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } },
    );
    const {
      now,
      deadlocks: { idleMs, ...deadlocks },
      ...body
    } = await res.json();
    return { ...body, deadlocks };
  };
  assert.deepEqual(await stats(b), await stats(a));
});
