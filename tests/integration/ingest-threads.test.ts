// Ingest on worker threads (lib/ingest/ingest-threads.ts), through the built app: more threads
// than this machine has cores, many senders at once, events shuffled and repeated. The stored
// result must equal in-order delivery, SQLite's writers must take turns in-process (not one 503
// from meeting each other in SQLite's file lock), and what the threads measure and announce must
// reach the request thread: the statement timings in /metrics, the change feed's announcements.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateSecret } from '@/lib/contract/server-secret';
import { createRng } from '@/lib/wire/random';
import { TEST_ADMIN_TOKEN, startAppServer, type AppServer } from '../support/app-server';
import { testProvider } from '../support/test-database';
import { T0, randomTimelines, shuffled } from '../support/random-timelines';
import { deliverBatches, senderServers, splitIntoBatches, statusCounts } from '../support/retrying-sender';
import { assertStoredMatches } from '../support/expected-state';
import { postEvents } from '../support/post-events';

const SERVERS = ['alpha', 'beta', 'gamma'];
const { secrets, env } = senderServers(SERVERS, generateSecret);
const THREADS = 3;
let app: AppServer;

before(async () => {
  app = await startAppServer({ env: { ...env, DOORWATCH_INGEST_THREADS: String(THREADS) } });
});
after(async () => {
  await app?.stop();
});

/** `doorwatch_db_query_duration_seconds_count{operation="transaction"}` from /metrics. */
async function transactionCount(): Promise<number> {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  assert.equal(res.status, 200);
  const line = (await res.text())
    .split('\n')
    .find((l) => l.startsWith('doorwatch_db_query_duration_seconds_count{operation="transaction"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

test(`${testProvider()}: ${THREADS} ingest threads, 12 senders at once, shuffled and repeated: in-order result, no 503`, async () => {
  assert.match(
    app.output(),
    new RegExp(`"threads":${THREADS}[^\\n]*ingest threads started|ingest threads started[^\\n]*"threads":${THREADS}`),
  );
  // The first ingest creates the registry that observes statement timings; count from there.
  assert.equal((await postEvents(app.url, 'alpha', secrets.alpha, [])).status, 400);
  const before = await transactionCount();

  const timelines = randomTimelines({ count: 3_000, seed: 5101, prefix: 'thr', servers: SERVERS, maxSteps: 3, spreadMs: 60 * 60_000 });
  const ordered = timelines.flat();
  const rand = createRng(5102);
  const stream = shuffled([...ordered, ...ordered.filter(() => rand() < 0.1)], 5103);
  const batches = splitIntoBatches(stream, 60, rand);
  const log = await deliverBatches(batches, { url: () => app.url, secrets, concurrency: 12, deadlineMs: 180_000 });

  assert.deepEqual(log.failed, []);
  assert.deepEqual(statusCounts(log.answers), { 200: batches.length }, 'every batch answered 200 the first time');
  assert.equal(log.accepted, ordered.length, 'each event accepted exactly once');
  await assertStoredMatches(app.query, ordered, 'thr-', {
    url: app.url,
    token: TEST_ADMIN_TOKEN,
    fromMs: T0 - 3_600_000,
    toMs: T0 + 86_400_000,
  });
  // Each batch ran one write transaction on a thread; its timing was observed by the request thread.
  assert.ok((await transactionCount()) - before >= batches.length, 'the threads’ statement timings reach /metrics');
});

test(`${testProvider()}: a change stored on an ingest thread reaches the change feed`, async () => {
  const controller = new AbortController();
  const res = await fetch(`${app.url}/api/v1/changes`, {
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    signal: controller.signal,
  });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const heard = (async () => {
    while (!text.includes('feed-token')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  })();
  // Wait for the stream to be open before posting (its first bytes come at once).
  while (text === '') await new Promise((r) => setTimeout(r, 20));
  const posted = await postEvents(app.url, 'beta', secrets.beta, [
    { id: 'feed-1', token: 'feed-token', type: 'session.opened', at: new Date(T0).toISOString(), data: {} },
  ]);
  assert.equal(posted.status, 200);
  await Promise.race([heard, new Promise((_, reject) => setTimeout(() => reject(new Error(`no change heard; got: ${text}`)), 10_000))]);
  controller.abort();
  assert.match(text, /beta/);
});
