// The query API through real HTTP against the built app, seeded through signed ingest.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { generateSecret } from '@/lib/contract/server-secret';
import { ZStatsResponse } from '@/lib/contract/api/stats';
import { SESSION_CSV_COLUMNS, ZSessionListResponse, ZSessionView } from '@/lib/contract/api/sessions';
import { ZSessionDetailResponse } from '@/lib/contract/api/session-detail';
import { ZServerListResponse } from '@/lib/contract/api/servers';
import { Q_ALL_TOKENS, Q_BATCHES, Q_EXPECTED, Q_ONGOING_START, Q_RANGE, Q_T0 } from '../support/query-fixtures';
import { searchParams } from '../support/search-params';

const SECRETS: Record<string, string> = {
  alpha: generateSecret(),
  beta: generateSecret(),
  gamma: generateSecret(),
  delta: generateSecret(),
};
let app: AppServer;

before(async () => {
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: Object.entries(SECRETS)
        .map(([n, s]) => `${n}=${s}`)
        .join(','),
    },
  });
  for (const b of Q_BATCHES) {
    const res = await postEvents(app.url, b.server, SECRETS[b.server], b.events);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
});
after(async () => {
  await app?.stop();
});

async function get(path: string, query: Record<string, string | string[]> = {}) {
  const qs = searchParams(query).toString();
  const res = await fetch(`${app.url}${path}${qs ? `?${qs}` : ''}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* csv */
  }
  return { status: res.status, headers: res.headers, body, text };
}

const cursorWithKey = (k: number) => Buffer.from(JSON.stringify({ v: 1, o: '-lastEventAt', k, s: 'alpha', t: 'x' })).toString('base64url');
const tokensOf = (body: any) => body.sessions.map((s: any) => s.token).sort();

describe('GET /api/v1/stats', () => {
  test('definitions against the seeded timelines', async () => {
    const before = Date.now();
    const { status, body } = await get('/api/v1/stats', Q_RANGE);
    assert.equal(status, 200);
    ZStatsResponse.parse(body);
    for (const k of [
      'events',
      'sessions',
      'drops',
      'boundary',
      'refused',
      'naiveResumes',
      'dualNegotiations',
      'burnedTokenReuses',
    ] as const) {
      assert.equal(body[k], Q_EXPECTED[k], k);
    }
    assert.deepEqual(body.refusalLatencyMs, Q_EXPECTED.refusalLatencyMs);
    assert.deepEqual(body.renegotiations, Q_EXPECTED.renegotiations);
    assert.equal(body.deadlocks.total, 2);
    assert.equal(body.deadlocks.ongoing, 1);
    const ongoingIdle = body.deadlocks.idleMs - Q_EXPECTED.endedDeadlockIdleMs;
    assert.ok(ongoingIdle >= before - Q_ONGOING_START && ongoingIdle <= Date.now() - Q_ONGOING_START, String(ongoingIdle));
    assert.equal(body.range.from, Q_RANGE.from);
    assert.equal(body.series.length, 10);
    assert.equal(
      body.series.reduce((a: number, b: any) => a + b.sessions, 0),
      9,
    );
    assert.equal(
      body.refusalLatencyHistogram.reduce((a: number, b: any) => a + b.count, 0),
      4,
    );
  });

  test('server filter, explicit bucket, relative range', async () => {
    const alpha = await get('/api/v1/stats', { ...Q_RANGE, server: 'alpha', bucket: '5m' });
    assert.equal(alpha.body.sessions, 4);
    assert.equal(alpha.body.bucketMs, 300_000);
    assert.equal(alpha.body.series.length, 2);
    const rel = await get('/api/v1/stats', { from: `now-${Math.ceil((Date.now() - Q_T0) / 3_600_000) + 1}h` });
    assert.equal(rel.status, 200);
    assert.equal(rel.body.sessions, 9);
    assert.equal(rel.body.range.toInput, 'now');
  });

  test('bad input: invalid_time_range, invalid_bucket, invalid_server', async () => {
    for (const [q, code] of [
      [{ from: 'yesterday' }, 'invalid_time_range'],
      [{ from: 'now', to: 'now-1h' }, 'invalid_time_range'],
      [{ bucket: '7x' }, 'invalid_bucket'],
      [{ from: 'now-7d', bucket: '1m' }, 'invalid_bucket'],
      [{ server: ['a', 'b'] }, 'invalid_server'],
    ] as const) {
      const r = await get('/api/v1/stats', q as any);
      assert.equal(r.status, 400, JSON.stringify(q));
      assert.equal(r.body.error.code, code);
    }
  });

  test('instants beyond JavaScript dates or outside 1970…9999 are 400s naming the parameter, not 500s', async () => {
    for (const [path, q, param] of [
      ['/api/v1/stats', { from: '9999999999990000' }, 'from'],
      ['/api/v1/stats', { from: 'now-1h', to: 'now+999999999w' }, 'to'],
      ['/api/v1/stats', { from: '1969-12-31T00:00:00Z' }, 'from'],
      ['/api/v1/sessions', { to: 'now+999999999w' }, 'to'],
    ] as const) {
      const r = await get(path, q as any);
      assert.equal(r.status, 400, JSON.stringify(q));
      assert.equal(r.body.error.code, 'invalid_time_range');
      assert.equal(r.body.error.details.param, param);
    }
  });

  test('Grafana rounding: now-1d/d … now-1d/d is yesterday, one whole UTC day', async () => {
    const r = await get('/api/v1/stats', { from: 'now-1d/d', to: 'now-1d/d' });
    assert.equal(r.status, 200);
    const from = Date.parse(r.body.range.from);
    assert.equal(from % 86_400_000, 0);
    assert.equal(Date.parse(r.body.range.to) - from, 86_400_000);
    assert.equal(r.body.bucketMs, 15 * 60_000);
  });
});

describe('GET /api/v1/sessions', () => {
  test('every filter', async () => {
    const cases: [Record<string, string | string[]>, string[]][] = [
      [{}, [...Q_ALL_TOKENS].sort()],
      [{ flag: 'refused' }, ['a-ref1', 'a-ref2', 'a-ref3', 'g-burn']],
      [{ flag: ['refused', 'renegotiated'] }, ['a-ref1', 'a-ref2']],
      [{ flag: 'deadlock' }, ['b-naive', 'b-ongoing']],
      [{ flag: 'naive_resume' }, ['b-naive', 'b-ongoing']],
      [{ flag: 'dual_negotiation' }, ['b-dual']],
      [{ flag: 'burned_token_reuse' }, ['g-burn']],
      [{ flag: 'boundary', server: 'beta' }, ['b-naive', 'b-ongoing']],
      [{ server: 'gamma' }, ['g-burn']],
      [{ state: 'websocket_bound' }, ['b-new1']],
      [{ state: 'upgrade_pending' }, ['b-dual', 'b-ongoing']],
      [{ token: 'a-ref' }, ['a-ref1', 'a-ref2', 'a-ref3']],
      [{ token: 'b-new1' }, ['b-new1']],
      [{ from: new Date(Q_T0 + 120_000).toISOString(), to: new Date(Q_T0 + 200_000).toISOString() }, ['a-ref3', 'b-dual', 'b-naive']],
    ];
    for (const [q, want] of cases) {
      const r = await get('/api/v1/sessions', { ...q, limit: '100' });
      assert.equal(r.status, 200, JSON.stringify(q));
      ZSessionListResponse.parse(r.body);
      assert.deepEqual(tokensOf(r.body), want, JSON.stringify(q));
    }
  });

  test('reader-clock deadlock on the unended naive resume', async () => {
    const r = await get('/api/v1/sessions', { token: 'b-ongoing' });
    const s = r.body.sessions[0];
    assert.equal(s.deadlock.ongoing, true);
    assert.equal(s.deadlock.endedAt, null);
    assert.ok(s.flags.includes('deadlock'));
  });

  test('pagination: no duplicates or gaps, newest activity first', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await get('/api/v1/sessions', { limit: '2', ...(cursor ? { cursor } : {}) });
      assert.equal(r.status, 200);
      seen.push(...r.body.sessions.map((s: any) => `${s.server}/${s.token}`));
      cursor = r.body.nextCursor;
    } while (cursor);
    assert.equal(seen.length, 9);
    assert.equal(new Set(seen).size, 9);
    const full = await get('/api/v1/sessions', { limit: '500' });
    assert.deepEqual(
      seen,
      full.body.sessions.map((s: any) => `${s.server}/${s.token}`),
    );
    const lasts = full.body.sessions.map((s: any) => Date.parse(s.lastEventAt));
    assert.deepEqual(
      lasts,
      [...lasts].sort((a: number, b: number) => b - a),
    );
  });

  test('total counts every matching row across pages, the same on every page', async () => {
    const filters: Record<string, string | string[]>[] = [
      {},
      { flag: 'refused' },
      { server: 'beta' },
      { token: 'a-ref' },
      { token: 'nobody' },
    ];
    for (const q of filters) {
      const seen: string[] = [];
      const totals = new Set<number>();
      let cursor: string | null = null;
      do {
        const r = await get('/api/v1/sessions', { ...q, limit: '2', ...(cursor ? { cursor } : {}) });
        assert.equal(r.status, 200, JSON.stringify(q));
        assert.equal(r.body.totalCapped, false);
        totals.add(r.body.total);
        seen.push(...r.body.sessions.map((s: any) => `${s.server}/${s.token}`));
        cursor = r.body.nextCursor;
      } while (cursor);
      assert.deepEqual([...totals], [seen.length], JSON.stringify(q));
    }
  });

  test('bad input gets specific 400 codes', async () => {
    const other = (await get('/api/v1/sessions', { limit: '1', sort: 'lastEventAt' })).body.nextCursor;
    for (const [q, code] of [
      [{ flag: 'bogus' }, 'invalid_flag'],
      [{ state: 'nap' }, 'invalid_state'],
      [{ limit: '0' }, 'invalid_limit'],
      [{ limit: '501' }, 'invalid_limit'],
      [{ cursor: 'not-a-cursor' }, 'invalid_cursor'],
      [{ cursor: other }, 'invalid_cursor'],
      [{ sort: 'token' }, 'invalid_sort'],
      [{ from: 'later' }, 'invalid_time_range'],
      [{ format: 'xml' }, 'invalid_format'],
      // Keys the database cannot compare and characters PostgreSQL refuses: 400s, never a 500.
      [{ cursor: cursorWithKey(1.5) }, 'invalid_cursor'],
      [{ cursor: cursorWithKey(1e300) }, 'invalid_cursor'],
      [{ token: 'tok\u0000x' }, 'invalid_token'],
      [{ server: 'alpha\u0000' }, 'invalid_server'],
      [{ from: 'now\u0000' }, 'invalid_from'],
    ] as const) {
      const r = await get('/api/v1/sessions', q as any);
      assert.equal(r.status, 400, JSON.stringify(q));
      assert.equal(r.body.error.code, code, JSON.stringify(q));
    }
  });

  test('a 400 lists every wrong parameter', async () => {
    const r = await get('/api/v1/sessions', { flag: ['refused', 'bogus'], limit: 'ten' });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'invalid_flag');
    assert.deepEqual(
      r.body.error.details.issues.map((i: any) => i.parameter),
      ['flag.1', 'limit'],
    );
  });

  test('paths: a malformed percent-escape or a NUL is a JSON 400, not a 500', async () => {
    for (const [path, method, code] of [
      ['/api/v1/ingest/%FF', 'POST', 'invalid_path'],
      ['/api/v1/servers/%FF/sessions/x', 'GET', 'invalid_path'],
      ['/api/v1/admin/dead-letters/%E0%A4%A', 'GET', 'invalid_path'],
      ['/api/v1/servers/alpha/sessions/a%00b', 'GET', 'invalid_token'],
    ] as const) {
      const res = await fetch(`${app.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      assert.equal(res.status, 400, path);
      assert.equal((await res.json()).error.code, code, path);
    }
    // A well-formed escape still reaches the route.
    assert.equal((await get('/api/v1/servers/alpha/sessions/%E2%9C%93-none')).status, 404);
  });

  test('dead-letter cursors with keys the database cannot hold are 400s', async () => {
    for (const r of [1.5, 1e300]) {
      const cursor = Buffer.from(JSON.stringify({ v: 1, r, i: 'x' })).toString('base64url');
      const res = await get('/api/v1/admin/dead-letters', { cursor });
      assert.equal(res.status, 400, String(r));
      assert.equal(res.body.error.code, 'invalid_cursor');
    }
  });
});

describe('export', () => {
  test('CSV of the whole filtered set, not a page', async () => {
    const r = await get('/api/v1/sessions/export', { flag: 'boundary', limit: '1' });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /text\/csv/);
    assert.match(r.headers.get('content-disposition')!, /attachment; filename="doorwatch-sessions-.*\.csv"/);
    const lines = r.text.trimEnd().split('\r\n');
    assert.equal(lines[0], SESSION_CSV_COLUMNS.join(','));
    assert.deepEqual(
      lines
        .slice(1)
        .map((l) => l.split(',')[1])
        .sort(),
      ['a-ref1', 'a-ref2', 'a-ref3', 'b-naive', 'b-ongoing', 'g-burn'],
    );
  });

  test('JSON array via format=json, on /sessions as well', async () => {
    for (const path of ['/api/v1/sessions/export', '/api/v1/sessions']) {
      const r = await get(path, { format: 'json', server: 'beta', limit: '1' });
      assert.equal(r.status, 200);
      assert.ok(Array.isArray(r.body));
      r.body.forEach((s: unknown) => ZSessionView.parse(s));
      assert.deepEqual(r.body.map((s: any) => s.token).sort(), ['b-dual', 'b-naive', 'b-new1', 'b-ongoing']);
    }
    const empty = await get('/api/v1/sessions/export', { format: 'json', server: 'nobody' });
    assert.deepEqual(empty.body, []);
  });
});

describe('GET /api/v1/servers/{server}/sessions/{token}', () => {
  test('summary, ordered timeline and chain across servers', async () => {
    const r = await get('/api/v1/servers/beta/sessions/b-new1');
    assert.equal(r.status, 200);
    ZSessionDetailResponse.parse(r.body);
    assert.deepEqual(
      r.body.timeline.map((e: any) => e.type),
      ['session.opened', 'upgrade.accepted', 'upgrade.completed'],
    );
    assert.equal(r.body.timeline[0].data.previousToken, 'a-ref1');
    assert.deepEqual(
      r.body.chain.predecessors.map((l: any) => `${l.server}/${l.token}`),
      ['alpha/a-ref1'],
    );
    assert.deepEqual(r.body.chain.successors, []);
    const a = await get('/api/v1/servers/alpha/sessions/a-ref2');
    assert.deepEqual(
      a.body.chain.successors.map((l: any) => `${l.server}/${l.token}`),
      ['alpha/a-new2'],
    );
    assert.equal(a.body.session.renegotiationLatencyMs, 300);
  });

  test('404 session_not_found for an unknown token on a known server, server_not_found for an unknown server', async () => {
    for (const [path, code] of [
      ['/api/v1/servers/alpha/sessions/nope', 'session_not_found'],
      // beta's token on alpha: the server exists, the session is not on it.
      ['/api/v1/servers/alpha/sessions/b-new1', 'session_not_found'],
      ['/api/v1/servers/nowhere/sessions/a-ref1', 'server_not_found'],
    ]) {
      const r = await get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error.code, code, path);
      assert.match(r.body.error.message, code === 'server_not_found' ? /no server "nowhere"/ : /no session/);
    }
  });
});

describe('GET /api/v1/servers', () => {
  test('verdicts, counts and last seen', async () => {
    const r = await get('/api/v1/servers');
    assert.equal(r.status, 200);
    ZServerListResponse.parse(r.body);
    const by = Object.fromEntries(r.body.servers.map((s: any) => [s.name, s]));
    assert.deepEqual(Object.keys(by).sort(), ['alpha', 'beta', 'delta', 'gamma']);
    assert.equal(by.alpha.verdict, 'refuses');
    assert.deepEqual(by.beta.counts, { boundary: 2, refused: 0, naiveResumes: 2, dualNegotiations: 1, burnedTokenReuses: 0 });
    assert.equal(by.beta.verdict, 'naive');
    assert.equal(by.gamma.verdict, 'naive');
    assert.equal(by.delta.verdict, 'unknown');
    assert.equal(by.alpha.events, 16);
    assert.equal(by.beta.lastSeenAt, new Date(Q_T0 + 360_250).toISOString());
  });
});

describe('GET /api/v1/openapi.json', () => {
  test('an OpenAPI 3.1 document with every query path, no auth needed, cached briefly', async () => {
    const res = await fetch(`${app.url}/api/v1/openapi.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
    const doc = await res.json();
    assert.equal(doc.openapi, '3.1.0');
    for (const p of [
      '/api/v1/stats',
      '/api/v1/sessions',
      '/api/v1/sessions/export',
      '/api/v1/servers',
      '/api/v1/servers/{server}/sessions/{token}',
      '/api/v1/operators',
    ]) {
      assert.ok(doc.paths[p], p);
    }
    assert.equal(doc.paths['/api/v1/stats'].get.responses['200'].content['application/json'].schema.type, 'object');
    assert.ok(doc.servers.length >= 1);
    const sessions = doc.paths['/api/v1/sessions'].get;
    assert.equal(sessions.operationId, 'listSessions');
    for (const name of ['flag', 'state', 'server']) {
      const p = sessions.parameters.find((x: any) => x.name === name);
      assert.equal(p.schema.type, 'array', name);
      assert.equal(p.style, 'form', name);
      assert.equal(p.explode, true, name);
    }
    assert.deepEqual(doc.paths['/api/health'].get.security, []);
    const ingest = doc.paths['/api/v1/ingest/{server}'].post;
    assert.deepEqual(
      ingest.parameters.filter((x: any) => x.in === 'header').map((x: any) => x.name),
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    );
    assert.deepEqual(Object.keys(ingest.responses).sort(), ['200', '207', '400', '401', '413', '415', '429', '503']);
    assert.ok(ingest.requestBody.content['application/json'].schema.properties.events);
  });
});
