// Change-stream fan-out (issue 28): a thousand open change streams on one instance, one of them a
// client that never reads. The readers keep getting every change while it stalls; it is dropped
// once its queue passes DOORWATCH_CHANGE_STREAM_BUFFER_BYTES (freeing its slot); one token holds
// at most DOORWATCH_CHANGE_STREAMS_PER_TOKEN streams (429 too_many_streams) while another token
// still gets its own; and the app's resident memory grows by a bounded amount (reported).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { until } from '../support/alert-fixtures';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { call } from '../support/http';
import { postEvents } from '../support/post-events';
import { sampleGroupRss } from '../support/process-rss';
import { openNonReader, openReader, type NonReader, type Reader } from '../support/sse-clients';
import { testProvider } from '../support/test-database';
import { generateSecret } from '@/lib/contract/server-secret';

const SECRET = generateSecret();
const STREAMS = 1_000;
const BUFFER_BYTES = 8_192;
const PREFIX = 'fan-';
/** Generous: a thousand streams on Next cost well under this (the figure is printed). */
const RSS_GROWTH_BOUND_MB = 400;

let app: AppServer;
const readers: Reader[] = [];
let nonReader: NonReader | null = null;

/** One batch whose change (one event per token) stays just under the ~8 KB message bound, so it is sent whole. */
function batch(n: number) {
  const tokens: { server: string; token: string }[] = [];
  while (JSON.stringify({ servers: ['alpha'], tokens, allTokens: false }).length < 7_000) {
    tokens.push({ server: 'alpha', token: `${PREFIX}${n}-${tokens.length}-${'x'.repeat(16)}` });
  }
  const at = new Date(Date.now() - 60_000).toISOString();
  return tokens.map(({ token }) => ({ id: `${token}-0`, token, type: 'session.opened', at, data: {} }));
}

before(async () => {
  // Each stream is one descriptor here and one in the app.
  const soft = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  assert.ok(
    soft >= 2 * STREAMS + 500,
    `ulimit -n is ${soft}: this test needs ${2 * STREAMS + 500} (raise it in the shell that runs npm test)`,
  );
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: `alpha=${SECRET}`,
      DOORWATCH_CHANGE_STREAMS_PER_TOKEN: String(STREAMS),
      DOORWATCH_CHANGE_STREAM_BUFFER_BYTES: String(BUFFER_BYTES),
    },
  });
});
after(async () => {
  nonReader?.kill();
  for (const r of readers) r.close();
  await app?.stop();
});

test(`a thousand change streams, one never reading: the readers keep up, it is dropped, memory is bounded (${testProvider()})`, async () => {
  const rssBefore = sampleGroupRss(app.pid).totalKb;
  // The stalled client first, so it holds one of the token's slots.
  nonReader = await openNonReader(app.url, ADMIN);
  for (let wave = 0; readers.length < STREAMS - 1; wave++) {
    const n = Math.min(100, STREAMS - 1 - readers.length);
    readers.push(...(await Promise.all(Array.from({ length: n }, () => openReader(app.url, ADMIN, PREFIX)))));
  }
  assert.ok(
    readers.every((r) => r.status === 200),
    `statuses: ${[...new Set(readers.map((r) => r.status))].join(',')}`,
  );
  const rssOpen = sampleGroupRss(app.pid).totalKb;

  // The token's limit: one more is refused with the code; another token still gets its own.
  const refused = await call(app.url, '/api/v1/changes', { token: ADMIN });
  assert.equal(refused.status, 429, refused.text);
  assert.equal(refused.body.error.code, 'too_many_streams');
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  const made = await call(app.url, '/api/v1/operators', { method: 'POST', token: ADMIN, body: { name: 'wall', role: 'viewer' } });
  assert.equal(made.status, 201, made.text);
  const other = await openReader(app.url, made.body.token, PREFIX);
  assert.equal(other.status, 200);
  other.close();

  // Changes until the stalled client's queue passes the bound; every reader gets each one meanwhile.
  const dropped = () => app.output().includes('change stream dropped: the client is not reading');
  const lags: number[] = [];
  let n = 0;
  for (; n < 60 && (n < 3 || !dropped()); n++) {
    const res = await postEvents(app.url, 'alpha', SECRET, batch(n));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const posted = Date.now();
    const batchNo = n;
    await until(`batch ${batchNo} on every reader`, async () => readers.every((r) => r.batches.has(batchNo)), Boolean);
    lags.push(...readers.map((r) => r.batches.get(batchNo)! - posted));
  }
  assert.ok(dropped(), `the stalled stream was not dropped after ${n} changes`);
  assert.match(await nonReader.verdict(), /^closed/);
  // Dropped like a client abort: no failed request or pipe error in the log.
  assert.doesNotMatch(app.output(), /request failed|failed to pipe|failed to write chunk/);
  assert.ok(
    readers.every((r) => !r.ended),
    'a reader was dropped',
  );

  // Its slot is free again: the token holds STREAMS - 1 streams, so one more is let in.
  const again = await openReader(app.url, ADMIN, PREFIX);
  assert.equal(again.status, 200);
  readers.push(again);
  // /metrics counts them: the one drop, and the streams open now (999 readers + this one).
  const metrics = await until(
    'the change-stream metrics',
    async () => (await call(app.url, '/metrics', { token: ADMIN })).text,
    (text) => /^doorwatch_change_streams 1000$/m.test(text),
  );
  assert.match(metrics, /^doorwatch_change_streams_dropped_total 1$/m);

  const rssAfter = sampleGroupRss(app.pid).totalKb;
  lags.sort((a, b) => a - b);
  const figures = {
    provider: testProvider(),
    streams: STREAMS,
    changes: n,
    deliveryMs: { p50: lags[Math.floor(lags.length * 0.5)], p95: lags[Math.floor(lags.length * 0.95)], max: lags[lags.length - 1] },
    rssMb: { before: Math.round(rssBefore / 1024), open: Math.round(rssOpen / 1024), after: Math.round(rssAfter / 1024) },
    loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
  };
  console.log(`change fan-out: ${JSON.stringify(figures)}`);
  assert.ok(
    rssAfter - rssBefore < RSS_GROWTH_BOUND_MB * 1024,
    `RSS grew ${Math.round((rssAfter - rssBefore) / 1024)} MB with ${STREAMS} streams`,
  );
});
