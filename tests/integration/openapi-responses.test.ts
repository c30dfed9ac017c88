// Real answers of the running app, checked against the OpenAPI document it serves (with a JSON
// Schema validator, not the zod schemas the document came from): every GET operation, the ingest
// answers (200, 207) and the error body, so a client generated from the document reads them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { postEvents, postSigned } from '../support/post-events';
import { generateSecret } from '@/lib/contract/server-secret';
import { Q_BATCHES, Q_RANGE } from '../support/query-fixtures';

const SECRETS: Record<string, string> = {
  alpha: generateSecret(),
  beta: generateSecret(),
  gamma: generateSecret(),
  delta: generateSecret(),
};
let app: AppServer;
let doc: { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
// validateFormats off: ajv needs a plugin for date-time; zod's schemas carry a pattern for it anyway.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const covered = new Set<string>();

before(async () => {
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: Object.entries(SECRETS)
        .map(([n, s]) => `${n}=${s}`)
        .join(','),
    },
  });
  for (const b of Q_BATCHES) assert.equal((await postEvents(app.url, b.server, SECRETS[b.server], b.events)).status, 200);
  const res = await fetch(`${app.url}/api/v1/openapi.json`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
  doc = await res.json();
  ajv.addSchema(doc, 'openapi');
});
after(async () => {
  await app?.stop();
});

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Checks a real answer against the document's schema for that operation, status and media type. */
function conforms(path: string, method: string, status: number, body: unknown, type = 'application/json') {
  const op = doc.paths[path]?.[method];
  assert.ok(op, `${method} ${path} is documented`);
  assert.ok(op.responses[String(status)], `${method} ${path} documents status ${status}`);
  const validate = ajv.getSchema(`openapi#/${pointer('paths', path, method, 'responses', String(status), 'content', type, 'schema')}`);
  assert.ok(validate, `${method} ${path} ${status} has a ${type} schema`);
  assert.ok(validate(body), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`);
  covered.add(`${method} ${path}`);
}

async function call(url: string, init: RequestInit = {}) {
  const res = await fetch(`${app.url}${url}`, { ...init, headers: { authorization: `Bearer ${ADMIN}`, ...init.headers } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* csv */
  }
  return { status: res.status, headers: res.headers, body };
}

test('every GET answer conforms to the document', async () => {
  const qs = new URLSearchParams(Q_RANGE).toString();
  const gets: [string, string][] = [
    ['/api/v1/stats', `/api/v1/stats?${qs}&server=alpha`],
    ['/api/v1/sessions', `/api/v1/sessions?limit=3&flag=refused&state=terminated&state=websocket_bound`],
    ['/api/v1/servers', '/api/v1/servers'],
    ['/api/v1/operators', '/api/v1/operators'],
    ['/api/v1/admin/servers', '/api/v1/admin/servers'],
    ['/api/v1/admin/dead-letters', '/api/v1/admin/dead-letters'],
    ['/api/auth/me', '/api/auth/me'],
    ['/api/health', '/api/health'],
    ['/api/v1/openapi.json', '/api/v1/openapi.json'],
    ['/api/v1/servers/{server}/probes', '/api/v1/servers/alpha/probes'],
    ['/api/v1/alerts/rules', '/api/v1/alerts/rules'],
    ['/api/v1/alerts/history', '/api/v1/alerts/history'],
    ['/api/v1/alerts/contact-points', '/api/v1/alerts/contact-points'],
    ['/api/v1/alerts/deliveries', '/api/v1/alerts/deliveries'],
    ['/api/v1/incidents', '/api/v1/incidents?status=open'],
    ['/api/v1/silences', '/api/v1/silences'],
    ['/api/v1/servers/{server}/versions', '/api/v1/servers/alpha/versions'],
    ['/api/v1/servers/{server}/versions/compare', '/api/v1/servers/alpha/versions/compare?a=v1.0.0&b=v2.0.0'],
    ['/api/v1/annotations', `/api/v1/annotations?${qs}&server=alpha`],
    ['/api/v1/audit', '/api/v1/audit?entityType=server'],
    ['/api/live', '/api/live'],
    ['/api/ready', '/api/ready'],
  ];
  for (const [path, url] of gets) {
    const r = await call(url);
    assert.equal(r.status, 200, `${url}: ${JSON.stringify(r.body)}`);
    assert.equal(r.headers.get('cache-control'), path === '/api/v1/openapi.json' ? 'public, max-age=60' : 'no-store', url);
    conforms(path, 'get', 200, r.body);
  }

  // Single sign-on is not configured here: both of its GETs refuse by sending the browser back to sign in (oidc.test.ts: the flow).
  for (const path of ['/api/auth/oidc/start', '/api/auth/oidc/callback']) {
    const r = await call(path, { redirect: 'manual' });
    assert.equal(r.status, 303, path);
    assert.equal(r.headers.get('location'), '/login?error=oidc_not_configured', path);
    conforms(path, 'get', 303, r.body);
  }

  const page = (await call('/api/v1/sessions?limit=1')).body as { sessions: { server: string; token: string }[]; nextCursor: string };
  const [s] = page.sessions;
  const detail = await call(`/api/v1/servers/${encodeURIComponent(s.server)}/sessions/${encodeURIComponent(s.token)}`);
  assert.equal(detail.status, 200);
  conforms('/api/v1/servers/{server}/sessions/{token}', 'get', 200, detail.body);
  const unknownIncident = await call('/api/v1/incidents/inc_nope');
  assert.equal(unknownIncident.status, 404);
  conforms('/api/v1/incidents/{id}', 'get', 404, unknownIncident.body);
  conforms('/api/v1/sessions', 'get', 200, (await call(`/api/v1/sessions?limit=1&cursor=${page.nextCursor}`)).body);
  conforms('/api/v1/sessions', 'get', 200, (await call('/api/v1/sessions?format=json')).body);

  const json = await call('/api/v1/sessions/export?format=json&flag=boundary');
  conforms('/api/v1/sessions/export', 'get', 200, json.body);
  const csv = await call('/api/v1/sessions/export');
  assert.match(String(csv.headers.get('content-type')), /^text\/csv/);
  conforms('/api/v1/sessions/export', 'get', 200, csv.body, 'text/csv');
  const auditCsv = await call('/api/v1/audit?format=csv');
  assert.match(String(auditCsv.headers.get('content-type')), /^text\/csv/);
  conforms('/api/v1/audit', 'get', 200, auditCsv.body, 'text/csv');

  // A refused batch leaves a dead letter to read back.
  assert.equal((await postSigned(app.url, 'alpha', SECRETS.alpha, '{"events": "none"}')).status, 400);
  const letters = (await call('/api/v1/admin/dead-letters?code=invalid_body')).body as { deadLetters: { id: string }[] };
  const one = await call(`/api/v1/admin/dead-letters/${letters.deadLetters[0].id}`);
  assert.equal(one.status, 200);
  conforms('/api/v1/admin/dead-letters/{id}', 'get', 200, one.body);

  // Prometheus text: the documented media type, and a body that is text.
  const metrics = await call('/metrics');
  assert.equal(metrics.status, 200);
  assert.match(String(metrics.headers.get('content-type')), /^text\/plain/);
  conforms('/metrics', 'get', 200, metrics.body, 'text/plain; version=0.0.4');

  // The change stream never ends: read its first event, then hang up.
  const abort = new AbortController();
  const stream = await fetch(`${app.url}/api/v1/changes`, { headers: { authorization: `Bearer ${ADMIN}` }, signal: abort.signal });
  assert.equal(stream.status, 200);
  assert.match(String(stream.headers.get('content-type')), /^text\/event-stream/);
  const first = await stream.body!.getReader().read();
  abort.abort();
  conforms('/api/v1/changes', 'get', 200, new TextDecoder().decode(first.value), 'text/event-stream');

  // MCP (docs/mcp.md): open a session, then its server-to-client stream (no event until the server has one: headers only).
  const mcpHeaders = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  const init = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, ...mcpHeaders },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'openapi-test', version: '1' } },
    }),
  });
  assert.equal(init.status, 200);
  await init.body?.cancel();
  const mcpSession = init.headers.get('mcp-session-id')!;
  const mcpAbort = new AbortController();
  const mcpStream = await fetch(`${app.url}/mcp`, {
    headers: { authorization: `Bearer ${ADMIN}`, ...mcpHeaders, 'mcp-session-id': mcpSession },
    signal: mcpAbort.signal,
  });
  assert.equal(mcpStream.status, 200);
  assert.match(String(mcpStream.headers.get('content-type')), /^text\/event-stream/);
  mcpAbort.abort();
  conforms('/mcp', 'get', 200, '', 'text/event-stream');

  const documentedGets = Object.entries(doc.paths)
    .filter(([, m]) => m.get)
    .map(([p]) => `get ${p}`);
  assert.deepEqual(
    documentedGets.filter((k) => !covered.has(k)),
    [],
    'GET operations this test did not check',
  );
});

test('ingest answers (200, 207) and errors conform to the document', async () => {
  const event = { id: 'evt_openapi_1', token: 'tok-openapi', at: new Date().toISOString(), type: 'session.opened', data: {} };
  const ok = await postEvents(app.url, 'beta', SECRETS.beta, [event]);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  conforms('/api/v1/ingest/{server}', 'post', 200, ok.body);
  const mixed = await postEvents(app.url, 'beta', SECRETS.beta, [{ ...event, id: 'evt_openapi_2' }, { type: 'nonsense' }]);
  assert.equal(mixed.status, 207, JSON.stringify(mixed.body));
  conforms('/api/v1/ingest/{server}', 'post', 207, mixed.body);
  const unsigned = await postSigned(app.url, 'beta', SECRETS.alpha, JSON.stringify({ events: [event] }));
  conforms('/api/v1/ingest/{server}', 'post', 401, unsigned.body);
  const bad = await call('/api/v1/sessions?limit=0&flag=nope');
  assert.equal(bad.status, 400);
  conforms('/api/v1/sessions', 'get', 400, bad.body);
});

test('an /api path no route serves: 404 not_found in the documented error body, JSON for every method, never HTML', async () => {
  const validate = ajv.getSchema('openapi#/components/schemas/ApiError');
  assert.ok(validate, 'the document has an ApiError schema');
  const cases: [string, string][] = [
    ['GET', '/api/v1/nope'],
    ['GET', '/api/nope'],
    ['GET', '/api'],
    ['GET', '/api/v1/servers/alpha/nope/deeper'],
    ['POST', '/api/v1/nope'],
    ['DELETE', '/api/v2/servers'],
  ];
  for (const [method, path] of cases) {
    // Signed in or not: an unknown path is unknown either way.
    for (const headers of [{}, { authorization: `Bearer ${ADMIN}` }] as Record<string, string>[]) {
      const res = await fetch(`${app.url}${path}`, { method, headers });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/, `${method} ${path}`);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.ok(validate(body), `${method} ${path}: ${ajv.errorsText(validate.errors)}`);
      assert.equal(body.error.code, 'not_found');
      assert.ok(body.error.message.includes(`${method} ${path}`), body.error.message);
    }
  }
});
