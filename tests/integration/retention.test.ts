// The in-app retention schedule (instrumentation.ts → lib/retention/schedule.ts) on the running
// app: raw events past DOORWATCH_RETENTION_DAYS disappear, recent ones, summaries and rollups stay.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { generateSecret } from '@/lib/contract/server-secret';
import { testProvider } from '../support/test-database';

const SECRET = generateSecret();
const DAY = 86_400_000;
let app: AppServer;

before(async () => {
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: `alpha=${SECRET}`,
      DOORWATCH_RETENTION_DAYS: '7',
      DOORWATCH_RETENTION_INTERVAL_MS: '1000',
      DOORWATCH_RETENTION_BATCH: '25',
      DOORWATCH_RETENTION_PAUSE_MS: '10',
    },
  });
});
after(async () => {
  await app?.stop();
});

test('the app prunes raw events past DOORWATCH_RETENTION_DAYS on its own schedule, keeping summaries and rollups', async () => {
  const now = Date.now();
  const timeline = (token: string, start: number) => [
    { id: `${token}-o`, token, type: 'session.opened', at: new Date(start).toISOString(), data: {} },
    { id: `${token}-d`, token, type: 'stream.dropped', at: new Date(start + 100).toISOString(), data: {} },
    { id: `${token}-c`, token, type: 'session.closed', at: new Date(start + 200).toISOString(), data: {} },
  ];
  const old = Array.from({ length: 30 }, (_, i) => timeline(`ret-old-${i}`, now - 10 * DAY + i * 1000)).flat();
  const recent = Array.from({ length: 5 }, (_, i) => timeline(`ret-new-${i}`, now - DAY + i * 1000)).flat();
  assert.equal((await postEvents(app.url, 'alpha', SECRET, [...old, ...recent])).status, 200);
  const sessions = await app.query('SELECT * FROM "Session" ORDER BY "token"');
  const rollups = await app.query('SELECT * FROM "Rollup" ORDER BY "minute"');
  const histogramQuarters = await app.query('SELECT * FROM "LatencyHistogramQuarter" ORDER BY "minute", "metric", "bucket"');

  const deadline = Date.now() + 45_000;
  let left = -1;
  while (Date.now() < deadline) {
    [{ n: left }] = await app.query(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "token" LIKE 'ret-old-%'`);
    if (left === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(left, 0, 'old raw events pruned');
  const [{ n: kept }] = await app.query(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "token" LIKE 'ret-new-%'`);
  assert.equal(kept, 15);
  if (testProvider() === 'postgresql') {
    // Each event's identity ("EventKey", lib/store/ingest-statements.ts) goes with it, and only then.
    const keys = await app.query<{ old: number; recent: number }>(
      `SELECT COUNT(*) FILTER (WHERE "eventId" LIKE 'ret-old-%') AS "old", COUNT(*) FILTER (WHERE "eventId" LIKE 'ret-new-%') AS "recent" FROM "EventKey"`,
    );
    assert.deepEqual(
      keys.map((k) => [Number(k.old), Number(k.recent)]),
      [[0, 15]],
    );
  }
  assert.deepEqual(await app.query('SELECT * FROM "Session" ORDER BY "token"'), sessions);
  assert.deepEqual(await app.query('SELECT * FROM "Rollup" ORDER BY "minute"'), rollups);
  assert.deepEqual(await app.query('SELECT * FROM "LatencyHistogramQuarter" ORDER BY "minute", "metric", "bucket"'), histogramQuarters);
  // One JSON log line per run that pruned something (lib/log): the counts, not a sentence to parse.
  const logged = /"events":[1-9]\d*[^\n]*"msg":"retention pruned old rows"/;
  while (!logged.test(app.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.match(app.output(), logged, 'the run is logged');
});
