// The ingest API through real HTTP against the built app.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import Database from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents, postSigned } from '../support/post-events';
import { generateSecret } from '@/lib/contract/server-secret';
import { createTestDatabase, testProvider } from '../support/test-database';
import { startTcpProxy } from '../support/tcp-proxy';

const SECRET = generateSecret();
const OTHER_SECRET = generateSecret();
const RATE_SECRET = generateSecret();
let app: AppServer;
let seq = 0;
const t0 = Date.parse('2026-11-29T10:00:00.000Z');
const at = (ms: number) => new Date(t0 + ms).toISOString();
const uid = (p: string) => `${p}-${++seq}`;

function refusedTimeline(token: string) {
  return [
    { id: uid('o'), token, type: 'session.opened', at: at(0), data: {} },
    { id: uid('u'), token, type: 'upgrade.accepted', at: at(100), data: { eventId: 7 } },
    { id: uid('d'), token, type: 'stream.dropped', at: at(150), data: { reason: 'reset' } },
    { id: uid('r'), token, type: 'resume.requested', at: at(200), data: { lastEventId: 7 } },
    { id: uid('x'), token, type: 'resume.refused', at: at(251), data: {} },
  ];
}

async function sessionRow(server: string, token: string): Promise<any> {
  return (await app.query('SELECT * FROM "Session" WHERE "server" = ? AND "token" = ?', [server, token]))[0];
}

before(async () => {
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: `alpha=${SECRET},beta=${OTHER_SECRET},ratey=${RATE_SECRET}`,
      // A slow refill, so the 429 test does not depend on how fast this machine posts 4,000 events
      // (at 1,000/s a loaded CI machine refilled the bucket between posts and never saw a 429).
      DOORWATCH_INGEST_RATE: '50',
      DOORWATCH_INGEST_BURST: '3000',
      DOORWATCH_SQLITE_BUSY_TIMEOUT_MS: '300',
    },
  });
});
after(async () => {
  await app?.stop();
});

describe('answers', () => {
  test('200 with counts, and the session summary is stored', async () => {
    const events = refusedTimeline('tok-200');
    const res = await postEvents(app.url, 'alpha', SECRET, events);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { accepted: 5, duplicates: 0, rejected: [] });
    const row = await sessionRow('alpha', 'tok-200');
    assert.equal(row.state, 'terminated');
    assert.equal(row.boundaryOutcome, 'refused');
    assert.equal(row.refusalLatencyMs, 51);
    assert.equal(row.flags, 'boundary refused');
  });

  test('207: valid events stored, each invalid one listed with a code and dead-lettered', async () => {
    const good = refusedTimeline('tok-207').slice(0, 2);
    const bad = [
      { id: 'bad-type', token: 'tok-207', type: 'upgrade.exploded', at: at(5), data: {} },
      { id: 'bad-field', token: 'tok-207', type: 'upgrade.accepted', at: at(6), data: { eventId: -1 } },
      { id: 'no-token', type: 'session.closed', at: at(7), data: {} },
    ];
    const res = await postEvents(app.url, 'alpha', SECRET, [good[0], bad[0], good[1], bad[1], bad[2]]);
    assert.equal(res.status, 207);
    assert.equal(res.body.accepted, 2);
    assert.deepEqual(
      res.body.rejected.map((r: any) => [r.index, r.id, r.code]),
      [
        [1, 'bad-type', 'invalid_type'],
        [3, 'bad-field', 'invalid_field'],
        [4, 'no-token', 'missing_field'],
      ],
    );
    for (const r of res.body.rejected) assert.ok(r.message.length > 5);
    const letters = await app.query('SELECT * FROM "DeadLetter" WHERE "eventId" IN (?,?,?) ORDER BY "eventIndex"', [
      'bad-type',
      'bad-field',
      'no-token',
    ]);
    assert.equal(letters.length, 3);
    assert.deepEqual(JSON.parse(letters[0].payload), bad[0]);
  });

  test('400 for a body that is not JSON or not the envelope, raw body dead-lettered', async () => {
    const notJson = await postSigned(app.url, 'alpha', SECRET, '{"events": [');
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.error.code, 'invalid_body');
    for (const payload of [
      '{"events": []}',
      '{"evts": [1]}',
      '[1,2]',
      JSON.stringify({ events: Array.from({ length: 1001 }, () => ({})) }),
    ]) {
      const res = await postSigned(app.url, 'alpha', SECRET, payload);
      assert.equal(res.status, 400, payload.slice(0, 40));
      assert.equal(res.body.error.code, 'invalid_body');
    }
    const [kept] = await app.query(`SELECT "payload" FROM "DeadLetter" WHERE "code" = 'invalid_body' AND "payload" = ?`, ['{"events": [']);
    assert.ok(kept, 'the raw body of a 400 is kept');
  });

  test('415 for a wrong content type', async () => {
    const res = await postEvents(app.url, 'alpha', SECRET, refusedTimeline('tok-415'), { contentType: 'text/plain' });
    assert.equal(res.status, 415);
    assert.equal(res.body.error.code, 'unsupported_media_type');
  });

  test('413 when the declared length is too large, answered before the body is sent', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${app.url}/api/v1/ingest/alpha`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(5 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"events": ['); // and never the rest: the answer must not wait for 5 MiB
    });
    assert.equal(status, 413);
  });

  test('413 for a chunked body past 1 MiB without a declared length, before it is all sent', async () => {
    // Its own keep-alive connection, as real senders (fetch, the reporter) use. With `agent: false`
    // Node's client asks for `Connection: close`, and Node's server then closes the socket as soon
    // as the 413 is written while upload bytes are still unread: the kernel answers with a reset
    // that can reach the client before it reads the 413 (seen as EPIPE, ~8 % of runs here).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { status, sentBytes } = await new Promise<{ status: number; sentBytes: number }>((resolve, reject) => {
        let sent = 0;
        let done = false;
        const req = httpRequest(`${app.url}/api/v1/ingest/alpha`, {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          done = true;
          res.resume();
          resolve({ status: res.statusCode ?? 0, sentBytes: sent });
          req.destroy();
        });
        req.on('error', (err) => {
          if (!done) reject(err);
        });
        const chunk = 'x'.repeat(64 * 1024);
        const pump = () => {
          while (!done && sent < 64 * 1024 * 1024) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
        };
        pump();
      });
      assert.equal(status, 413);
      assert.ok(sentBytes < 64 * 1024 * 1024, 'answered before the whole upload');
    } finally {
      agent.destroy();
    }
  });

  test('429 with Retry-After when a server exceeds its rate', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({
      id: uid('rl'),
      token: `rl-${i % 50}`,
      type: 'stream.dropped',
      at: at(i),
      data: {},
    }));
    let limited: Awaited<ReturnType<typeof postEvents>> | null = null;
    for (let i = 0; i < 10 && !limited; i++) {
      const res = await postEvents(
        app.url,
        'ratey',
        RATE_SECRET,
        many.map((e) => ({ ...e, id: `${e.id}-${i}` })),
      );
      if (res.status === 429) limited = res;
      else assert.equal(res.status, 200);
    }
    assert.ok(limited, 'a 429 after exceeding the burst of 3,000 events (refilled at 50/s)');
    assert.equal(limited!.body.error.code, 'rate_limited');
    assert.ok(Number(limited!.headers.get('retry-after')) >= 1);
  });
});

describe('signatures', () => {
  const events = () => refusedTimeline(uid('sig'));
  const expectUnauthorized = (res: { status: number; body: any }) => {
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'unauthorized');
  };

  test('wrong secret, unknown server, tampered body, missing headers: one generic 401', async () => {
    const unauthorizedMessages = new Set<string>();
    for (const res of [
      await postEvents(app.url, 'alpha', OTHER_SECRET, events()),
      await postEvents(app.url, 'nobody', SECRET, events()),
      await postEvents(app.url, 'alpha', SECRET, events(), { body: JSON.stringify({ events: events() }) }),
    ]) {
      expectUnauthorized(res);
      unauthorizedMessages.add(res.body.error.message);
    }
    assert.equal(unauthorizedMessages.size, 1, 'no hint which check failed');
    const res = await fetch(`${app.url}/api/v1/ingest/alpha`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"events":[]}',
    });
    assert.equal(res.status, 401);
  });

  test('stale and future timestamps are refused; a few seconds of skew is fine', async () => {
    expectUnauthorized(await postEvents(app.url, 'alpha', SECRET, events(), { timestamp: new Date(Date.now() - 6 * 60_000) }));
    expectUnauthorized(await postEvents(app.url, 'alpha', SECRET, events(), { timestamp: new Date(Date.now() + 6 * 60_000) }));
    assert.equal((await postEvents(app.url, 'alpha', SECRET, events(), { timestamp: new Date(Date.now() - 30_000) })).status, 200);
  });

  test('several signatures in the header: any valid one is accepted', async () => {
    const payload = JSON.stringify({ events: events() });
    const msgId = 'msg_multi';
    const now = new Date();
    const good = new Webhook(SECRET).sign(msgId, now, payload);
    const bad = new Webhook(OTHER_SECRET).sign(msgId, now, payload);
    const res = await fetch(`${app.url}/api/v1/ingest/alpha`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': msgId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': `${bad} ${good}`,
      },
      body: payload,
    });
    assert.equal(res.status, 200);
  });

  test('a rotated secret keeps the old one valid during its grace period, then not', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    // Asynchronously, so idle keep-alive connections notice a server-side close while the CLI runs.
    const run = async (...args: string[]) =>
      (
        await promisify(execFile)(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/server-cli.ts', ...args], {
          env: app.env,
          encoding: 'utf8',
        })
      ).stdout;
    const added = await run('add', 'gamma');
    const oldSecret = /whsec_\S+/.exec(added)![0];
    await new Promise((r) => setTimeout(r, 5100)); // past the app's 5 s secret cache
    assert.equal((await postEvents(app.url, 'gamma', oldSecret, events())).status, 200);
    const rotated = await run('rotate', 'gamma', '--grace-seconds', '3600');
    const newSecret = /whsec_\S+/.exec(rotated)![0];
    await new Promise((r) => setTimeout(r, 5100));
    assert.equal((await postEvents(app.url, 'gamma', newSecret, events())).status, 200, 'new secret works');
    assert.equal((await postEvents(app.url, 'gamma', oldSecret, events())).status, 200, 'old secret still works in grace');
    await run('rotate', 'gamma', '--grace-seconds', '0');
    await new Promise((r) => setTimeout(r, 5100));
    expectUnauthorized(await postEvents(app.url, 'gamma', oldSecret, events()));
    expectUnauthorized(await postEvents(app.url, 'gamma', newSecret, events()));
    assert.match(await run('list'), /gamma/);
  });
});

describe('reporter status', () => {
  const body = (events: unknown[], reporter: unknown) => JSON.stringify({ events, reporter });
  const lossOf = async (server: string) => {
    const res = await fetch(`${app.url}/api/v1/servers`, { headers: { authorization: 'Bearer dw_test_admin_token_0123456789abcdef' } });
    return (await res.json()).servers.find((s: any) => s.name === server).reporterLoss;
  };

  test('what a reporter lost is kept per instance, never lowered by a late request, and shown per server', async () => {
    assert.equal(await lossOf('beta'), null, 'no reporter status yet');
    const send = async (instance: string, dropped: number, failed: number) => {
      const events = [{ id: uid('rep'), token: 'rep-tok', type: 'stream.dropped', at: at(1), data: {} }];
      const res = await postSigned(app.url, 'beta', OTHER_SECRET, body(events, { instance, dropped, failed }));
      assert.equal(res.status, 200);
    };
    await send('host-a-1', 3, 0);
    await send('host-a-1', 12, 1);
    await send('host-a-1', 5, 0); // a retry of an older batch arriving last
    await send('host-b-2', 0, 4);
    const loss = await lossOf('beta');
    assert.deepEqual({ ...loss, lastReportAt: typeof loss.lastReportAt }, { instances: 2, dropped: 12, failed: 5, lastReportAt: 'string' });
  });

  test('a malformed reporter status is a 400 like any bad envelope, and its body is dead-lettered', async () => {
    const events = [{ id: uid('rep'), token: 'rep-tok', type: 'stream.dropped', at: at(1), data: {} }];
    const res = await postSigned(app.url, 'beta', OTHER_SECRET, body(events, { instance: 'has spaces', dropped: -1, failed: 0 }));
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'invalid_body');
    assert.match(res.body.error.message, /reporter\.instance/);
    assert.match(res.body.error.message, /reporter\.dropped/);
  });
});

describe('idempotency and ordering', () => {
  test('duplicates within a batch, across batches and in a retried request are stored once', async () => {
    const events = refusedTimeline('tok-dup');
    const first = await postEvents(app.url, 'alpha', SECRET, [...events, events[0], events[1]], { msgId: 'msg_dup' });
    assert.deepEqual([first.status, first.body.accepted, first.body.duplicates], [200, 5, 2]);
    const retried = await postEvents(app.url, 'alpha', SECRET, [...events, events[0], events[1]], { msgId: 'msg_dup' });
    assert.deepEqual([retried.body.accepted, retried.body.duplicates], [0, 7]);
    const later = await postEvents(app.url, 'alpha', SECRET, [events[2], { ...events[3], id: uid('late') }]);
    assert.deepEqual([later.body.accepted, later.body.duplicates], [1, 1]);
    const [{ n }] = await app.query('SELECT COUNT(*) AS "n" FROM "Event" WHERE "server" = ? AND "token" = ?', ['alpha', 'tok-dup']);
    assert.equal(n, 6);
    assert.equal((await sessionRow('alpha', 'tok-dup')).eventCount, 6);
  });

  test('the same event id on two servers is two events', async () => {
    const e = { id: 'shared-id', token: 'tok-shared', type: 'session.opened', at: at(0), data: {} };
    assert.equal((await postEvents(app.url, 'alpha', SECRET, [e])).body.accepted, 1);
    assert.equal((await postEvents(app.url, 'beta', OTHER_SECRET, [e])).body.accepted, 1);
  });

  test('shuffled, split and late delivery gives the same summaries and rollups as ordered delivery', async () => {
    // Two fleets of the same shape on two servers: one delivered in order, one shuffled one-by-one.
    const build = (prefix: string) => {
      const out: any[] = [];
      for (let i = 0; i < 12; i++) {
        const token = `${prefix}-${i}`;
        const base = i * 1000;
        out.push({
          id: `${token}-o`,
          token,
          type: 'session.opened',
          at: at(base),
          data: i % 3 === 1 ? { previousToken: `${prefix}-${i - 1}` } : {},
        });
        out.push({ id: `${token}-u`, token, type: 'upgrade.accepted', at: at(base + 100), data: { eventId: 3 } });
        out.push({ id: `${token}-d`, token, type: 'stream.dropped', at: at(base + 150), data: {} });
        out.push({ id: `${token}-r`, token, type: 'resume.requested', at: at(base + 200), data: { lastEventId: 3 } });
        if (i % 3 === 0) out.push({ id: `${token}-x`, token, type: 'resume.refused', at: at(base + 250), data: {} });
        else if (i % 3 === 1) {
          out.push({ id: `${token}-a`, token, type: 'resume.accepted', at: at(base + 240), data: { replayed: 0 } });
          out.push({ id: `${token}-t`, token, type: 'session.timeout', at: at(base + 300_240), data: { idleMs: 300_000 } });
        } else {
          out.push({ id: `${token}-u2`, token, type: 'upgrade.accepted', at: at(base + 260), data: { eventId: 9 } });
          out.push({ id: `${token}-j`, token, type: 'upgrade.rejected', at: at(base + 270), data: { status: 409 } });
        }
      }
      return out;
    };
    const ordered = build('ord');
    assert.equal((await postEvents(app.url, 'alpha', SECRET, ordered)).status, 200);
    const shuffled = build('ord');
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = (i * 7919 + 13) % (i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    for (let i = 0; i < shuffled.length; i += 5) {
      const res = await postEvents(app.url, 'beta', OTHER_SECRET, shuffled.slice(i, i + 5));
      assert.equal(res.status, 200);
    }
    const strip = (r: any) => {
      const { server, updatedAt, successorServer, ...rest } = r;
      return rest;
    };
    const rowsA = (await app.query(`SELECT * FROM "Session" WHERE "server" = 'alpha' AND "token" LIKE 'ord-%' ORDER BY "token"`)).map(
      strip,
    );
    const rowsB = (await app.query(`SELECT * FROM "Session" WHERE "server" = 'beta' AND "token" LIKE 'ord-%' ORDER BY "token"`)).map(strip);
    assert.equal(rowsA.length, 12);
    assert.deepEqual(rowsB, rowsA);
    assert.ok(rowsA.some((r) => r.flags.includes('renegotiated')));
    assert.ok(rowsA.some((r) => r.flags.includes('deadlock')));
    assert.ok(rowsA.some((r) => r.flags.includes('dual_negotiation')));
  });
});

describe('durability', () => {
  test(
    '503 with Retry-After when the database cannot take the write; the retry then stores everything',
    { skip: testProvider() !== 'sqlite' && 'SQLite lock test; the PostgreSQL run has the outage test below' },
    async () => {
      const events = refusedTimeline('tok-503');
      const blocker = new Database(app.databaseUrl.slice('file:'.length));
      blocker.exec('BEGIN EXCLUSIVE');
      let res;
      try {
        res = await postEvents(app.url, 'alpha', SECRET, events, { msgId: 'msg_503' });
      } finally {
        blocker.exec('ROLLBACK');
        blocker.close();
      }
      assert.equal(res.status, 503);
      assert.equal(res.body.error.code, 'database_unavailable');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      const retry = await postEvents(app.url, 'alpha', SECRET, events, { msgId: 'msg_503' });
      assert.deepEqual([retry.status, retry.body.accepted], [200, 5]);
    },
  );

  test(
    'PostgreSQL outage: 503 with Retry-After and a degraded health check while the link is down; the retry then stores everything',
    { skip: testProvider() !== 'postgresql' && 'PostgreSQL outage test; the SQLite run has the lock test above' },
    async () => {
      // The app reaches its database through a proxy we can cut: a real outage (connections
      // reset, new ones refused) without stopping the cluster the other tests share.
      const db = await createTestDatabase('postgresql');
      const target = new URL(db.url);
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      const proxied = new URL(db.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const outage = await startAppServer({ databaseUrl: proxied.toString(), env: { DOORWATCH_SERVERS: `alpha=${SECRET}` } });
      try {
        assert.equal((await postEvents(outage.url, 'alpha', SECRET, refusedTimeline('tok-pg-before'))).status, 200);
        const events = refusedTimeline('tok-pg-503');
        proxy.down();
        const res = await postEvents(outage.url, 'alpha', SECRET, events, { msgId: 'msg_pg_503' });
        assert.equal(res.status, 503);
        assert.equal(res.body.error.code, 'database_unavailable');
        assert.ok(Number(res.headers.get('retry-after')) > 0);
        const health = await fetch(`${outage.url}/api/health`);
        assert.equal(health.status, 503);
        assert.equal((await health.json()).database.reachable, false);
        proxy.up();
        const retry = await postEvents(outage.url, 'alpha', SECRET, events, { msgId: 'msg_pg_503' });
        assert.deepEqual([retry.status, retry.body.accepted], [200, 5]);
        assert.equal((await fetch(`${outage.url}/api/health`)).status, 200);
        const [{ n }] = await db.query(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "token" IN ('tok-pg-before', 'tok-pg-503')`);
        assert.equal(n, 10);
      } finally {
        await outage.stop();
        await proxy.close();
        await db.drop();
      }
    },
  );
});

test('a 200 means committed: killing the app right after loses nothing', async () => {
  const crashing = await startAppServer({ env: { DOORWATCH_SERVERS: `alpha=${SECRET}` } });
  try {
    const events = Array.from({ length: 400 }, (_, i) => ({
      id: `crash-${i}`,
      token: `crash-${i % 40}`,
      type: 'stream.dropped',
      at: at(i),
      data: {},
    }));
    const res = await postEvents(crashing.url, 'alpha', SECRET, events);
    assert.equal(res.status, 200);
    await crashing.crash();
    const [{ n }] = await crashing.query(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "eventId" LIKE 'crash-%'`);
    const [{ n: sessions }] = await crashing.query(`SELECT COUNT(*) AS "n" FROM "Session" WHERE "token" LIKE 'crash-%'`);
    const [{ n: drops }] = await crashing.query(`SELECT CAST(SUM("drops") AS BIGINT) AS "n" FROM "Rollup" WHERE "server" = 'alpha'`);
    assert.deepEqual([n, sessions, drops], [400, 40, 400]);
  } finally {
    await crashing.stop();
  }
});
