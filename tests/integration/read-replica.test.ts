// DATABASE_READ_URL against a real streaming replica on loopback (PostgreSQL pass only). A
// throwaway primary gets a hot standby (pg_basebackup -R -X stream); Doorwatch runs with
// DATABASE_URL=primary and DATABASE_READ_URL=replica. With WAL replay paused on the replica, the
// query API lags (a new session is missing, an old one shows its old summary WITH its old
// events) while the primary holds the data, /metrics reports the lag, and an operator's own
// change is read back at once (read-after-write cookie → primary). Replay resumed under
// continued ingest: every session detail read meanwhile shows a summary that matches its own
// timeline (one snapshot), and the API catches up with the primary. The live change stream
// announces a change only once the replica has replayed it, so the page's refetch sees it.
import { after, test } from 'node:test';
import { createParser } from 'eventsource-parser';
import assert from 'node:assert/strict';
import { generateSecret } from '@/lib/contract/server-secret';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { openDb, type Db } from '@/lib/db/client';
import { primaryWalPosition, replayedPast } from '@/lib/db/replica-position';
import { WRITTEN_COOKIE } from '@/lib/route/read-after-write';
import { startThrowawayCluster } from '../../scripts/test-postgres.mjs';
import { TEST_ADMIN_TOKEN, startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { testProvider } from '../support/test-database';

const SECRET = generateSecret();
const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const RANGE = { from: new Date(T0 - 3_600_000).toISOString(), to: new Date(T0 + 86_400_000).toISOString() };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** One drop → resume → accepted cycle of `token`, the n-th (event times grow with n). */
const cycle = (token: string, n: number) => {
  const at = (ms: number) => new Date(T0 + 1_000 + n * 1_000 + ms).toISOString();
  return [
    { id: `${token}-d${n}`, token, type: 'stream.dropped', at: at(0), data: { reason: 'reset' } },
    { id: `${token}-r${n}`, token, type: 'resume.requested', at: at(100), data: { lastEventId: n } },
    { id: `${token}-a${n}`, token, type: 'resume.accepted', at: at(200), data: { replayed: 0 } },
  ];
};
const opened = (token: string) => [
  { id: `${token}-o`, token, type: 'session.opened', at: new Date(T0).toISOString(), data: {} },
  { id: `${token}-u`, token, type: 'upgrade.accepted', at: new Date(T0 + 100).toISOString(), data: { eventId: 1 } },
];

async function api(app: AppServer, path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  const res = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* text (metrics) */
  }
  return { status: res.status, headers: res.headers, body, text };
}

async function ingest(app: AppServer, events: unknown[]) {
  const res = await postEvents(app.url, 'alpha', SECRET, events);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** The summary must describe exactly the events shown with it: not older, not newer. */
function assertSummaryMatchesTimeline(body: any, where: string) {
  const { session, timeline } = body;
  assert.equal(session.eventCount, timeline.length, `${where}: eventCount ${session.eventCount} vs ${timeline.length} events shown`);
  const last = timeline
    .map((e: any) => e.at)
    .sort()
    .at(-1);
  assert.equal(session.lastEventAt, last, `${where}: lastEventAt vs the last event shown`);
}

const sessionTokens = async (app: AppServer) => {
  const res = await api(app, `/api/v1/sessions?from=${RANGE.from}&to=${RANGE.to}&limit=200`);
  assert.equal(res.status, 200, res.text);
  return new Set<string>(res.body.sessions.map((s: any) => s.token));
};

/** The `change` frames of GET /api/v1/changes, as they arrive (with arrival time). */
async function watchChanges(app: AppServer) {
  const ac = new AbortController();
  const res = await fetch(`${app.url}/api/v1/changes`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, signal: ac.signal });
  assert.equal(res.status, 200);
  const changes: { at: number; data: any }[] = [];
  const parser = createParser({ onEvent: (m) => m.event === 'change' && changes.push({ at: Date.now(), data: JSON.parse(m.data) }) });
  const ready = new Promise<void>((resolve) => {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          const text = decoder.decode(chunk, { stream: true });
          if (text.includes('event: ready')) resolve();
          parser.feed(text);
        }
      } catch {
        /* aborted */
      }
    })();
  });
  await ready;
  return { changes, close: () => ac.abort() };
}

async function waitForReplay(primary: Db, replica: Db) {
  const lsn = await primaryWalPosition(primary.sql);
  const deadline = Date.now() + 30_000;
  while (!(await replayedPast(replica.sql, lsn))) {
    assert.ok(Date.now() < deadline, `the replica did not replay up to ${lsn} in 30 s`);
    await sleep(20);
  }
}

test(
  'postgresql: the query API reads a streaming replica, lags with it, never pairs a summary with other events, and catches up',
  {
    skip:
      testProvider() !== 'postgresql' && 'a streaming replica needs PostgreSQL: runs in the PostgreSQL pass (SQLite has no replication)',
  },
  async () => {
    const cluster = await startThrowawayCluster();
    cleanups.push(() => cluster.stop());
    const standby = await cluster.startReplica();
    const primary = openDb(readDatabaseConfig({ DATABASE_URL: cluster.url }));
    const replica = openDb(readDatabaseConfig({ DATABASE_URL: standby.url }));
    cleanups.push(() => Promise.all([primary.close(), replica.close()]).then(() => undefined));
    const [{ recovery }] = await replica.sql.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS "recovery"');
    assert.equal(recovery, true, 'DATABASE_READ_URL points at a hot standby');

    const app = await startAppServer({
      databaseUrl: cluster.url,
      env: { DOORWATCH_SERVERS: `alpha=${SECRET}`, DATABASE_READ_URL: standby.url },
    });
    cleanups.push(() => app.stop());

    // 1. Caught up: the API shows what was ingested.
    await ingest(app, [...opened('tok-a'), ...cycle('tok-a', 1)]);
    await waitForReplay(primary, replica);
    const first = await api(app, '/api/v1/servers/alpha/sessions/tok-a');
    assert.equal(first.status, 200, first.text);
    assertSummaryMatchesTimeline(first.body, 'caught up');
    assert.equal(first.body.timeline.length, 5);

    // 2. Replay paused: the primary moves on, the API does not.
    await replica.sql.query('SELECT pg_wal_replay_pause()');
    for (let i = 0; (await replica.sql.query<{ s: string }>('SELECT pg_get_wal_replay_pause_state() AS "s"'))[0].s !== 'paused'; i++) {
      assert.ok(i < 500, 'replay pauses');
      await sleep(10);
    }
    await ingest(app, cycle('tok-a', 2));
    await ingest(app, opened('tok-b'));
    const onPrimary = await primary.sql.query<{ token: string; eventCount: number }>(
      `SELECT "token", "eventCount" FROM "Session" WHERE "server" = 'alpha' ORDER BY "token"`,
    );
    assert.deepEqual(
      onPrimary.map((r) => [r.token, Number(r.eventCount)]),
      [
        ['tok-a', 8],
        ['tok-b', 2],
      ],
      'the primary has both sessions',
    );
    const lagging = await sessionTokens(app);
    assert.deepEqual([...lagging], ['tok-a'], 'the query API reads the paused replica: tok-b is not there yet');
    const stale = await api(app, '/api/v1/servers/alpha/sessions/tok-a');
    assert.equal(stale.status, 200, stale.text);
    assertSummaryMatchesTimeline(stale.body, 'replay paused');
    assert.equal(stale.body.timeline.length, 5, 'the old summary with its own old events');
    assert.equal((await api(app, '/api/v1/servers/alpha/sessions/tok-b')).status, 404);
    const stats = await api(app, `/api/v1/stats?from=${RANGE.from}&to=${RANGE.to}`);
    assert.equal(stats.status, 200, stats.text);

    // The lag is visible to Prometheus while replay is paused.
    await sleep(1_100);
    const metrics = await api(app, '/metrics');
    assert.equal(metrics.status, 200);
    const lagLine = /^doorwatch_replica_lag_seconds ([0-9.e+-]+)$/m.exec(metrics.text);
    assert.ok(lagLine, 'doorwatch_replica_lag_seconds is exposed');
    const lagSeconds = Number(lagLine[1]);
    assert.ok(lagSeconds >= 1, `replica lag ${lagSeconds} s while replay is paused`);

    // 3. Read-after-write: an operator's change answers with the primary's WAL position; their
    // next read goes to the primary until the replica has replayed past it. Others still read the replica.
    const added = await api(app, '/api/v1/admin/servers', { method: 'POST', body: { name: 'beta' } });
    assert.equal(added.status, 201, added.text);
    const setCookie = added.headers.get('set-cookie') ?? '';
    const written = new RegExp(`${WRITTEN_COOKIE}=([0-9A-F]+/[0-9A-F]+)`, 'i').exec(setCookie);
    assert.ok(written, `the change sets ${WRITTEN_COOKIE} (got ${JSON.stringify(setCookie)})`);
    assert.match(setCookie, /HttpOnly/);
    const cookie = `${WRITTEN_COOKIE}=${written[1]}`;
    const serverNames = async (c?: string) => {
      const res = await api(app, `/api/v1/servers?from=${RANGE.from}&to=${RANGE.to}`, { cookie: c });
      assert.equal(res.status, 200, res.text);
      return res.body.servers.map((s: any) => s.name).sort();
    };
    assert.deepEqual(await serverNames(cookie), ['alpha', 'beta'], 'the operator sees their own change at once');
    assert.deepEqual(await serverNames(), ['alpha'], 'a reader without the cookie reads the lagging replica');
    assert.deepEqual([...(await sessionTokens(app))], ['tok-a']);

    // 4. Replay resumes while ingest goes on; detail reads meanwhile always pair a summary with its own events.
    await replica.sql.query('SELECT pg_wal_replay_resume()');
    const counts = new Set<number>();
    let reads = 0;
    let sending = true;
    // Two readers, so that replay often lands between a read's statements (reading summary and events
    // separately instead of in one snapshot failed this in 2 of 3 runs with one reader).
    const readers = [0, 1].map(async () => {
      while (sending) {
        const res = await api(app, '/api/v1/servers/alpha/sessions/tok-a');
        assert.equal(res.status, 200, res.text);
        assertSummaryMatchesTimeline(res.body, `read ${++reads} during catch-up`);
        counts.add(res.body.timeline.length);
      }
    });
    try {
      for (let n = 3; n <= 40; n++) await ingest(app, cycle('tok-a', n));
    } finally {
      sending = false;
      await Promise.all(readers);
    }
    await waitForReplay(primary, replica);
    const caughtUp = await api(app, '/api/v1/servers/alpha/sessions/tok-a');
    assertSummaryMatchesTimeline(caughtUp.body, 'after catch-up');
    assert.equal(caughtUp.body.timeline.length, 2 + 40 * 3);
    assert.deepEqual([...(await sessionTokens(app))].sort(), ['tok-a', 'tok-b']);
    assert.deepEqual(await serverNames(), ['alpha', 'beta']);
    // The cookie's position is replayed now: the operator reads the replica again (same answer).
    assert.deepEqual(await serverNames(cookie), ['alpha', 'beta']);

    // 5. Live updates: a change is announced only once the replica has replayed it.
    const live = await watchChanges(app);
    cleanups.push(() => live.close());
    await replica.sql.query('SELECT pg_wal_replay_pause()');
    await sleep(200);
    await ingest(app, opened('tok-c'));
    await sleep(1_500);
    const aboutC = () => live.changes.filter((c) => c.data.tokens.some((t: any) => t.token === 'tok-c'));
    assert.deepEqual(aboutC(), [], 'no change frame while the replica has not replayed it');
    const resumedAt = Date.now();
    await replica.sql.query('SELECT pg_wal_replay_resume()');
    for (let i = 0; aboutC().length === 0; i++) {
      assert.ok(i < 500, 'the change is announced after replay resumes');
      await sleep(20);
    }
    assert.ok(aboutC()[0].at >= resumedAt);
    assert.ok((await sessionTokens(app)).has('tok-c'), 'the refetch a change frame prompts sees the change');
    console.log(
      `replica: lag while paused ${lagSeconds.toFixed(2)} s; ${reads} detail reads during catch-up saw ${counts.size} distinct timeline lengths ` +
        `(${Math.min(...counts)}–${Math.max(...counts)} events), every summary matching its own events`,
    );
  },
);
