// The live change stream (GET /api/v1/changes). PostgreSQL: two instances on one database; an
// event ingested on instance A reaches a stream open on instance B (pg_notify in the ingest
// transaction, each instance LISTENing on its own connection). SQLite: the in-process channel.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { createTestDatabase, testProvider, type TestDatabase } from '../support/test-database';
import { generateSecret } from '@/lib/contract/server-secret';

const ADMIN = 'dw_test_admin_token_0123456789abcdef';
const SECRET = generateSecret();
const SERVERS = { DOORWATCH_SERVERS: `alpha=${SECRET}` };

let shared: TestDatabase;
let a: AppServer;
let b: AppServer;

interface Stream {
  next(event: string, match?: (data: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): void;
}

/** Opens the change stream and collects its messages. */
async function openStream(app: AppServer, auth = true): Promise<Stream & { status: number }> {
  const ac = new AbortController();
  const res = await fetch(`${app.url}/api/v1/changes`, { headers: auth ? { authorization: `Bearer ${ADMIN}` } : {}, signal: ac.signal });
  const messages: EventSourceMessage[] = [];
  const waiters = new Set<() => void>();
  if (res.ok && res.body) {
    const parser = createParser({
      onEvent: (m) => {
        messages.push(m);
        for (const w of waiters) w();
      },
    });
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
      } catch {
        /* aborted */
      }
    })();
  }
  return {
    status: res.status,
    close: () => ac.abort(),
    next(event, match = () => true, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const i = messages.findIndex((m) => m.event === event && match(JSON.parse(m.data)));
          if (i < 0) return false;
          const [m] = messages.splice(i, 1);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(JSON.parse(m.data));
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no "${event}" within ${timeoutMs} ms; got ${messages.map((m) => m.event).join(',')}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}

const session = (token: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${token}-${i}`,
    token,
    type: i === 0 ? 'session.opened' : 'stream.dropped',
    at: new Date(Date.now() - 60_000 + i).toISOString(),
    data: {},
  }));

before(async () => {
  shared = await createTestDatabase();
  if (shared.provider === 'postgresql') {
    [a, b] = await Promise.all([
      startAppServer({ databaseUrl: shared.url, env: SERVERS }),
      startAppServer({ databaseUrl: shared.url, env: SERVERS }),
    ]);
  } else {
    a = await startAppServer({ databaseUrl: shared.url, env: SERVERS });
    b = a;
  }
});
after(async () => {
  await Promise.all([a?.stop(), b !== a ? b?.stop() : undefined]);
  await shared?.drop();
});

test('the change stream needs a signed-in viewer', async () => {
  const s = await openStream(a, false);
  s.close();
  assert.equal(s.status, 401);
});

test(`an event ingested on instance A appears on instance B's change stream (${testProvider()})`, async () => {
  const stream = await openStream(b);
  assert.equal(stream.status, 200);
  const ready = await stream.next('ready');
  assert.ok(ready.heartbeatMs > 0);
  try {
    const res = await postEvents(a.url, 'alpha', SECRET, session('live-tok-1', 2));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const change = await stream.next('change', (d) => d.tokens.some((t: any) => t.token === 'live-tok-1'));
    assert.deepEqual(change.servers, ['alpha']);
    assert.deepEqual(change.tokens, [{ server: 'alpha', token: 'live-tok-1' }]);
    assert.equal(change.allTokens, false);

    // A duplicate changes nothing and announces nothing; the next real change is the next message.
    await postEvents(a.url, 'alpha', SECRET, session('live-tok-1', 2));
    await postEvents(a.url, 'alpha', SECRET, session('live-tok-2', 1));
    const next = await stream.next('change');
    assert.deepEqual(next.tokens, [{ server: 'alpha', token: 'live-tok-2' }]);

    // A batch too large for one NOTIFY payload (8,000 bytes) arrives summarised: the server, every token.
    const many = Array.from({ length: 300 }, (_, i) => session(`live-big-${'x'.repeat(30)}-${i}`, 1)).flat();
    assert.equal((await postEvents(a.url, 'alpha', SECRET, many)).status, 200);
    const big = await stream.next('change', (d) => d.allTokens || d.tokens.length > 100);
    assert.deepEqual(big.servers, ['alpha']);
    if (testProvider() === 'postgresql') assert.equal(big.allTokens, true);
  } finally {
    stream.close();
  }
});

test('heartbeats keep an idle stream visibly alive', async () => {
  const stream = await openStream(b);
  try {
    await stream.next('ready');
    const hb = await stream.next('heartbeat', () => true, 12_000);
    assert.ok(Math.abs(hb.at - Date.now()) < 60_000);
  } finally {
    stream.close();
  }
});
