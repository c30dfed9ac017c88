// Issue 11 against the real built app: refused ingest requests are counted per server and reason
// (one generic 401 to the sender), /metrics (prom-client, bearer token of role scrape/viewer/admin)
// passes `promtool check metrics` and its database-derived values equal the stats API after the
// scripted timelines, the docs/prometheus files only name exposed metrics, /api/live and
// /api/ready answer, and the JSON log lines carry request ids and reasons but no secret or token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents, postSigned } from '../support/post-events';
import { generateSecret } from '@/lib/contract/server-secret';
import { ZStatsResponse } from '@/lib/contract/api/stats';
import { ZServerListResponse } from '@/lib/contract/api/servers';
import { ZReadyResponse } from '@/lib/contract/api/health-probes';
import { Q_BATCHES, Q_RANGE } from '../support/query-fixtures';
import { dashboardExpressions, exposedSeriesNames, metricNamesIn, rulesText } from '../support/prometheus-docs';

const ADMIN = 'dw_test_admin_token_0123456789abcdef';
const SECRETS: Record<string, string> = {
  alpha: generateSecret(),
  beta: generateSecret(),
  gamma: generateSecret(),
  delta: generateSecret(),
};
const INVENTED = Array.from({ length: 12 }, (_, i) => `invented-${i}`);
let app: AppServer;
let scrapeToken = '';
let sessionCookie = '';

async function call(path: string, init: { token?: string; cookie?: string; method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.cookie) headers.cookie = init.cookie;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // text (metrics)
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** `name{a="x",b="y"}` → value, labels sorted. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = m[2]
      ? [...m[2].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
          .map((l) => `${l[1]}="${l[2]}"`)
          .sort()
          .join(',')
      : '';
    out.set(`${m[1]}{${labels}}`, Number(m[3]));
  }
  return out;
}
const key = (name: string, labels: Record<string, string>) =>
  `${name}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',')}}`;

before(async () => {
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: Object.entries(SECRETS)
        .map(([n, s]) => `${n}=${s}`)
        .join(','),
      LOG_LEVEL: 'info',
    },
  });
  for (const b of Q_BATCHES) {
    const res = await postEvents(app.url, b.server, SECRETS[b.server], b.events);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  const created = await call('/api/v1/operators', { method: 'POST', token: ADMIN, body: { name: 'prom', role: 'scrape' } });
  assert.equal(created.status, 201, created.text);
  scrapeToken = created.body.token;
  const login = await fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ token: ADMIN }),
  });
  assert.equal(login.status, 200);
  sessionCookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  assert.match(sessionCookie, /=/);
});
after(async () => {
  await app?.stop();
});

describe('refused ingest requests', () => {
  test('each refusal is counted with its reason; the sender sees one generic 401', async () => {
    const events = [{ id: 'x', type: 'session.opened', token: 'tok-r', at: new Date().toISOString() }];
    const bodies: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await postEvents(app.url, 'alpha', generateSecret(), events);
      assert.equal(r.status, 401);
      bodies.push(JSON.stringify(r.body));
    }
    const bare = await fetch(`${app.url}/api/v1/ingest/alpha`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"events":[]}',
    });
    assert.equal(bare.status, 401);
    bodies.push(await bare.text());
    const text = await postEvents(app.url, 'alpha', SECRETS.alpha, events, { contentType: 'text/plain' });
    assert.equal(text.status, 415);
    const big = await postSigned(app.url, 'alpha', SECRETS.alpha, JSON.stringify({ events: [], pad: 'x'.repeat(1024 * 1024 + 10) }));
    assert.equal(big.status, 413);
    for (const name of INVENTED) {
      const r = await postEvents(app.url, name, SECRETS.alpha, events);
      assert.equal(r.status, 401);
      bodies.push(JSON.stringify(r.body));
    }
    // Last: a correct signature from a clock 6 minutes behind.
    const stale = await postEvents(app.url, 'alpha', SECRETS.alpha, events, { timestamp: new Date(Date.now() - 6 * 60_000) });
    assert.equal(stale.status, 401);
    bodies.push(JSON.stringify(stale.body));
    assert.equal(new Set(bodies).size, 1, 'every 401 body is the same');

    // Counts are flushed about once a second.
    const deadline = Date.now() + 15_000;
    let stats: any;
    for (;;) {
      stats = (await call('/api/v1/stats', { token: ADMIN })).body;
      if (stats.rejectedRequests >= 18 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    ZStatsResponse.parse(stats);
    assert.equal(stats.rejectedRequests, 18);
    assert.equal((await call('/api/v1/stats?server=alpha', { token: ADMIN })).body.rejectedRequests, 6);

    const servers = await call('/api/v1/servers', { token: ADMIN });
    assert.equal(servers.status, 200);
    ZServerListResponse.parse(servers.body);
    const alpha = servers.body.servers.find((s: any) => s.name === 'alpha');
    assert.deepEqual(alpha.rejections.byReason, {
      signature_mismatch: 2,
      missing_headers: 1,
      unsupported_media_type: 1,
      payload_too_large: 1,
      timestamp_out_of_tolerance: 1,
    });
    assert.equal(alpha.rejections.last.reason, 'timestamp_out_of_tolerance');
    assert.ok(Math.abs(alpha.rejections.last.skewMs + 360_000) < 5_000, String(alpha.rejections.last.skewMs));
    assert.equal(
      servers.body.servers.some((s: any) => s.name.startsWith('invented')),
      false,
      'invented names make no server rows',
    );
    assert.equal(servers.body.unknownServers.count, 12);
    assert.deepEqual(servers.body.unknownServers.recentNames, INVENTED.slice(-10));
    const rows = await app.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "IngestRejection" WHERE "server" LIKE 'invented%'`);
    assert.equal(Number(rows[0].n), 0);
  });
});

describe('GET /metrics', () => {
  test('bearer token of role scrape, viewer or admin; no login redirect; scrape reads nothing else', async () => {
    const anon = await call('/metrics');
    assert.equal(anon.status, 401);
    assert.equal(anon.body.error.code, 'unauthorized');
    assert.equal((await call('/metrics', { token: 'dw_wrong' })).status, 401);
    const scraped = await call('/metrics', { token: scrapeToken });
    assert.equal(scraped.status, 200);
    assert.match(scraped.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.equal((await call('/metrics', { token: ADMIN })).status, 200);
    assert.equal((await call('/api/v1/stats', { token: scrapeToken })).status, 403);
    assert.equal((await call('/api/v1/sessions', { token: scrapeToken })).status, 403);
  });

  test('promtool check metrics passes; values equal the stats API; rules and dashboard name only exposed metrics', async () => {
    const { text } = await call('/metrics', { token: scrapeToken });
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
    assert.equal(check.error, undefined);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.equal(text.includes('dw_'), false, 'no token in a label');

    const m = samples(text);
    const v = (name: string, labels: Record<string, string>) => m.get(key(name, labels)) ?? 0;
    for (const server of ['alpha', 'beta', 'gamma']) {
      const s = (await call(`/api/v1/stats?server=${server}&from=${encodeURIComponent(Q_RANGE.from)}&to=now`, { token: ADMIN })).body;
      ZStatsResponse.parse(s);
      assert.equal(v('doorwatch_naive_resumes_total', { server }), s.naiveResumes, `${server} naive`);
      assert.equal(v('doorwatch_dual_negotiations_total', { server }), s.dualNegotiations, `${server} dual`);
      assert.equal(v('doorwatch_burned_token_reuses_total', { server }), s.burnedTokenReuses, `${server} burned`);
      assert.equal(v('doorwatch_renegotiations_total', { server }), s.renegotiations.count, `${server} renegotiations`);
      assert.equal(v('doorwatch_deadlocks_ended_total', { server }), s.deadlocks.total - s.deadlocks.ongoing, `${server} deadlocks ended`);
      assert.equal(v('doorwatch_deadlocks_ongoing', { server }), s.deadlocks.ongoing, `${server} ongoing`);
      assert.equal(v('doorwatch_events_accepted_total', { server }), s.events, `${server} events`);
      assert.equal(v('doorwatch_boundary_entries_total', { server, outcome: 'refused' }), s.refused);
      assert.equal(v('doorwatch_boundary_entries_total', { server, outcome: 'naive_resume' }), s.naiveResumes);
      const hist = s.refusalLatencyHistogram as { toMs: number | null; count: number }[];
      const upTo = (ms: number) => hist.filter((b) => b.toMs !== null && b.toMs <= ms).reduce((n, b) => n + b.count, 0);
      assert.equal(v('doorwatch_refusal_latency_seconds_bucket', { server, le: '0.05' }), upTo(50), `${server} le 50 ms`);
      assert.equal(v('doorwatch_refusal_latency_seconds_bucket', { server, le: '0.2' }), upTo(200), `${server} le 200 ms`);
      assert.equal(v('doorwatch_refusal_latency_seconds_count', { server }), s.refusalLatencyMs.count);
      assert.equal(v('doorwatch_renegotiation_latency_seconds_bucket', { server, le: '0.2' }), s.renegotiations.under200ms);
      assert.equal(v('doorwatch_renegotiation_latency_seconds_count', { server }), s.renegotiations.count);
      const rejected = (await call(`/api/v1/stats?server=${server}`, { token: ADMIN })).body.rejectedRequests;
      const metricRejected = [...m]
        .filter(([k]) => k.startsWith('doorwatch_ingest_rejected_requests_total{') && k.includes(`server="${server}"`))
        .reduce((n, [, x]) => n + x, 0);
      assert.equal(metricRejected, rejected, `${server} rejected`);
    }
    assert.equal(v('doorwatch_ingest_rejected_requests_total', { server: 'alpha', status: '401', reason: 'signature_mismatch' }), 2);
    assert.equal(v('doorwatch_ingest_rejected_requests_total', { server: 'alpha', status: '413', reason: 'payload_too_large' }), 1);
    assert.equal(v('doorwatch_ingest_rejected_requests_total', { server: '*unknown*', status: '401', reason: 'unknown_server' }), 12);
    // The refusal sum is the rollups' latency sum: Q fixtures refuse in 60, 51, 100 and 42 ms… whatever they are, the API's exact values agree in count.
    assert.ok(v('doorwatch_refusal_latency_seconds_sum', { server: 'alpha' }) > 0);
    assert.ok(m.has(key('doorwatch_process_cpu_seconds_total', {})), 'default process metrics');
    assert.ok([...m.keys()].some((k) => k.startsWith('doorwatch_db_query_duration_seconds_count')));
    assert.ok([...m.keys()].some((k) => k.startsWith('doorwatch_ingest_batch_duration_seconds_count')));

    const exposed = exposedSeriesNames(text);
    const referenced = new Set([...metricNamesIn(rulesText()), ...dashboardExpressions().flatMap(metricNamesIn)]);
    assert.ok(referenced.size >= 12);
    const missing = [...referenced].filter((n) => !exposed.has(n));
    assert.deepEqual(missing, [], 'names the rules or the dashboard use that /metrics does not expose');
  });

  test(
    'counters come from the database: a second instance on the same database reports the same values',
    { skip: process.env.DOORWATCH_TEST_DATABASE !== 'postgresql' && 'one instance per SQLite file in tests' },
    async () => {
      const second = await startAppServer({
        databaseUrl: app.databaseUrl,
        env: {
          DOORWATCH_SERVERS: Object.entries(SECRETS)
            .map(([n, s]) => `${n}=${s}`)
            .join(','),
        },
      });
      try {
        const a = samples((await call('/metrics', { token: scrapeToken })).text);
        const res = await fetch(`${second.url}/metrics`, { headers: { authorization: `Bearer ${scrapeToken}` } });
        const b = samples(await res.text());
        for (const [k, x] of a)
          if (
            k.startsWith('doorwatch_naive_resumes_total') ||
            k.startsWith('doorwatch_ingest_rejected_requests_total') ||
            k.startsWith('doorwatch_refusal_latency_seconds_bucket')
          )
            assert.equal(b.get(k), x, k);
      } finally {
        await second.stop();
      }
    },
  );
});

describe('probes and logs', () => {
  test('/api/live and /api/ready answer without auth', async () => {
    const live = await call('/api/live');
    assert.equal(live.status, 200);
    assert.equal(live.body.status, 'live');
    const ready = await call('/api/ready');
    assert.equal(ready.status, 200, ready.text);
    ZReadyResponse.parse(ready.body);
    assert.equal(ready.body.status, 'ready');
    assert.equal(ready.body.reason, null);
  });

  test('one JSON line per request with id, route, status, duration; refusals with reasons; no secret, token or cookie', async () => {
    const me = await call('/api/auth/me', { cookie: sessionCookie });
    assert.equal(me.status, 200);
    const id = me.headers.get('x-request-id');
    assert.ok(id);
    await new Promise((r) => setTimeout(r, 300));
    const out = app.output();
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const meLine = lines.find((l) => l.reqId === id);
    assert.ok(meLine, 'the request line carries the id sent back');
    assert.equal(meLine.route, '/api/auth/me');
    assert.equal(meLine.status, 200);
    assert.equal(typeof meLine.durationMs, 'number');
    const ingestLine = lines.find((l) => l.route === '/api/v1/ingest/{server}' && l.status === 200);
    assert.ok(ingestLine && typeof ingestLine.accepted === 'number' && ingestLine.server);
    assert.ok(lines.some((l) => l.msg === 'ingest request refused' && l.reason === 'signature_mismatch' && l.server === 'alpha'));
    assert.ok(
      lines.some((l) => l.msg === 'ingest request refused' && l.reason === 'timestamp_out_of_tolerance' && typeof l.skewMs === 'number'),
    );
    const forbidden = [
      ADMIN,
      scrapeToken,
      sessionCookie.split('=')[1],
      ...Object.values(SECRETS),
      ...Object.values(SECRETS).map((s) => s.slice('whsec_'.length)),
    ];
    for (const s of forbidden) assert.equal(out.includes(s), false, `log output contains a secret (${s.slice(0, 8)}…)`);
  });
});
