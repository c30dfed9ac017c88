// /metrics through a database outage (issue 23): the scrape keeps answering 200 with the process and
// HTTP families and `doorwatch_database_up 0`, the domain families absent (not zero); afterwards
// `doorwatch_database_up 1` and the domain families are back. The log says which component lost the
// database and why (component "metrics", the driver's error text), never component "ingest" with an
// empty err. PostgreSQL: a throwaway cluster of the test's own is stopped. SQLite has no outage to
// simulate here: in WAL mode a process that holds the file open always reads (another process cannot
// even take an exclusive lock while it does); a SQLite handle that fails is covered by
// tests/unit/prometheus-domain.test.ts on both databases.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateSecret } from '@/lib/contract/server-secret';
import { startThrowawayCluster } from '../../scripts/test-postgres.mjs';
import { TEST_ADMIN_TOKEN, startAppServer, type AppServer } from '../support/app-server';
import { testProvider } from '../support/test-database';

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const ENV = { DOORWATCH_SERVERS: `alpha=${generateSecret()}` };

async function scrape(app: AppServer) {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  const text = await res.text();
  return { status: res.status, text, lines: new Set(text.split('\n').filter((l) => l && !l.startsWith('#'))) };
}

const logLines = (app: AppServer) =>
  app
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

test(
  'postgresql: /metrics during a database outage: 200, process metrics, doorwatch_database_up 0; back to 1 after',
  { skip: testProvider() !== 'postgresql' && 'a stopped PostgreSQL cluster: runs in the PostgreSQL pass (see the header for SQLite)' },
  async () => {
    const cluster = await startThrowawayCluster();
    cleanups.push(() => cluster.stop());
    const app = await startAppServer({ databaseUrl: cluster.url, env: ENV });
    cleanups.push(() => app.stop());
    const down = () => cluster.pause();
    const up = () => cluster.resume();

    const before = await scrape(app);
    assert.equal(before.status, 200, before.text);
    assert.ok(before.lines.has('doorwatch_database_up 1'), before.text);
    assert.ok(before.lines.has('doorwatch_naive_resumes_total{server="alpha"} 0'), before.text);

    await down();
    const during = await scrape(app);
    await up();
    assert.equal(during.status, 200, during.text);
    assert.ok(during.lines.has('doorwatch_database_up 0'), during.text);
    assert.ok(
      [...during.lines].some((l) => l.startsWith('doorwatch_process_cpu_seconds_total ')),
      'process metrics are served',
    );
    assert.ok(
      [...during.lines].some((l) => l.startsWith('doorwatch_http_request_duration_seconds_count{')),
      'HTTP metrics are served',
    );
    assert.equal(
      [...during.lines].some((l) => l.startsWith('doorwatch_naive_resumes_total')),
      false,
      'database-derived families are absent, not 0',
    );

    const outageLines = logLines(app).filter((l) => typeof l.msg === 'string' && /database unavailable/.test(l.msg));
    assert.ok(outageLines.length > 0, 'the outage is logged');
    for (const l of outageLines) {
      assert.equal(l.component, 'metrics', JSON.stringify(l));
      assert.ok(typeof l.err === 'string' && l.err.trim().length > 0, `the log says why: ${JSON.stringify(l)}`);
    }

    const afterwards = await scrape(app);
    assert.equal(afterwards.status, 200, afterwards.text);
    assert.ok(afterwards.lines.has('doorwatch_database_up 1'), afterwards.text);
    assert.ok(afterwards.lines.has('doorwatch_naive_resumes_total{server="alpha"} 0'), afterwards.text);
  },
);
