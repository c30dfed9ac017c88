// Issue 10, fuzz: hostile ingest requests (bodies, fields, headers, signatures, paths) and query
// requests (every GET of API_ROUTES with hostile parameters) against one real app. The promise:
// never a 5xx (a 503 must carry Retry-After and is counted), every 4xx a JSON error with a code,
// and the valid events of a mixed batch stored. Cases come from fixed seeds, so a failure is
// reproduced by running the file again; the seeds and counts are printed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { startAppServer, TEST_ADMIN_TOKEN, type AppServer } from '../support/app-server';
import { generateSecret } from '@/lib/contract/server-secret';
import { API_ROUTES } from '@/lib/contract/api/routes';

const INGEST_SEED = 1010;
const QUERY_SEED = 2020;
const INGEST_CASES = 10_000;
const QUERY_CASES = 2_000;
const IN_FLIGHT = 8;
const SERVER = 'alpha';
const OTHER = 'beta';
const SECRET = generateSecret();
const OTHER_SECRET = generateSecret();
const MiB = 1024 * 1024;

let app: AppServer;
const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

before(async () => {
  app = await startAppServer({
    env: { DOORWATCH_SERVERS: `${SERVER}=${SECRET},${OTHER}=${OTHER_SECRET}`, DOORWATCH_INGEST_RATE: '0' },
  });
});
after(async () => {
  agent.destroy();
  await app?.stop();
});

interface Case {
  kind: string;
  method: 'GET' | 'POST';
  /** Sent byte for byte (fetch would normalise a malformed escape). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Ids of the events of this batch that are valid and must be stored. */
  validIds?: string[];
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(c: Case): Promise<Answer> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...c.headers };
    if (c.body) headers['content-length'] = c.body.length;
    const req = httpRequest({ host: url.hostname, port: url.port, path: c.path, method: c.method, headers, agent }, (res) => {
      // The change stream never ends: its status and headers are the answer.
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

// ---------------------------------------------------------------- building blocks

const at = (ms: number) => new Date(Date.parse('2026-11-29T10:00:00.000Z') + ms).toISOString();

function nested(depth: number): string {
  return '['.repeat(depth) + '1' + ']'.repeat(depth);
}

/** JSON text spliced in as is: nesting 100,000 deep is cheap as text, but no object survives JSON.stringify. */
class RawJson {
  constructor(readonly text: string) {}
}

function toJson(v: unknown): string {
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

const deepJson = (min: number, max: number) => fc.integer({ min, max }).map((d) => new RawJson(nested(d)));

const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '\u0000', 'a\u0000b', '\u001f', '\u007f', '\u009f', '\ud800', '<script>alert(1)</script>', '%00', '../../etc'),
  fc.integer({ min: 0, max: 1_000 }).map((n) => 'x'.repeat(n)),
);

const hostileTimestamp = fc.oneof(
  fc.constantFrom(
    '9999-12-31T23:59:59.999-23:59',
    '9999-12-31T23:59:59.999Z',
    '+275760-09-13T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '2026-13-40T25:61:61.000Z',
    '2026-11-29T10:00:00Z',
    '2026-11-29',
    'now',
  ),
  fc.integer({ min: -8.64e15, max: 8.64e15 }).map((n) => new Date(n).toISOString()),
  hostileString,
  fc.double(),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  hostileString,
  deepJson(1, 6_000),
  fc.constantFrom(1e300, -0, Number.MAX_SAFE_INTEGER + 2, null, true, [], {}),
);

const eventType = fc.oneof(
  fc.constantFrom('session.opened', 'upgrade.accepted', 'resume.requested', 'stream.dropped', 'session.closed'),
  hostileString,
);

/** An event that breaks the contract in one or more fields (or is not an object at all). */
const invalidEvent: fc.Arbitrary<unknown> = fc.oneof(
  hostileValue,
  fc.record(
    {
      id: fc.oneof(hostileString, hostileValue),
      token: fc.oneof(hostileString, hostileValue),
      type: eventType,
      at: hostileTimestamp,
      data: hostileValue,
    },
    { requiredKeys: [] },
  ),
  // Exactly one field hostile, the rest valid: the validator's weakest spots.
  fc
    .record({
      field: fc.constantFrom('id', 'token', 'at', 'data', 'type'),
      value: fc.oneof(hostileValue, hostileTimestamp, fc.constant('tok\u0000en'), deepJson(5_000, 100_000)),
    })
    .map(({ field, value }) => ({ id: 'bad-one', token: 'bad-one-token', type: 'session.opened', at: at(0), data: {}, [field]: value })),
);

type BodyPlan =
  | { t: 'mixed'; valid: number; invalid: unknown[]; order: number[] }
  | { t: 'json'; value: unknown }
  | { t: 'bytes'; bytes: Uint8Array }
  | { t: 'deep'; depth: number; inData: boolean }
  | { t: 'huge'; size: number; where: 'data' | 'token' | 'raw' };

const bodyPlan: fc.Arbitrary<BodyPlan> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .record({ valid: fc.integer({ min: 0, max: 6 }), invalid: fc.array(invalidEvent, { maxLength: 6 }) })
      .chain(({ valid, invalid }) =>
        fc
          .shuffledSubarray([...Array(valid + invalid.length).keys()], { minLength: valid + invalid.length })
          .map((order) => ({ t: 'mixed' as const, valid, invalid, order })),
      ),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('json' as const), value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('bytes' as const), bytes: fc.uint8Array({ maxLength: 512 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('deep' as const), depth: fc.integer({ min: 100, max: 100_000 }), inData: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('huge' as const),
      size: fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: 1_000, max: 70_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: MiB - 70_000, max: MiB - 200 }) },
      ),
      where: fc.constantFrom('data' as const, 'token' as const, 'raw' as const),
    }),
  },
);

interface HeaderPlan {
  signature: 'valid' | 'wrong-secret' | 'other-server' | 'stale' | 'future' | 'garbled' | 'missing' | 'svix' | 'tampered';
  contentType: string | null;
  garble: { name: string; value: string } | null;
}

const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 80 });
const headerPlan: fc.Arbitrary<HeaderPlan> = fc.record({
  signature: fc.oneof(
    { weight: 12, arbitrary: fc.constant('valid' as const) },
    {
      weight: 8,
      arbitrary: fc.constantFrom(
        'wrong-secret' as const,
        'other-server' as const,
        'stale' as const,
        'future' as const,
        'garbled' as const,
        'missing' as const,
        'svix' as const,
        'tampered' as const,
      ),
    },
  ),
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        null,
        'text/plain',
        'application/json; charset=latin1',
        'multipart/form-data',
        'application/x-www-form-urlencoded',
        '',
      ),
    },
    { weight: 1, arbitrary: headerValue },
  ),
  garble: fc.option(
    fc.record({
      name: fc.constantFrom('webhook-id', 'webhook-timestamp', 'webhook-signature', 'svix-id', 'svix-timestamp', 'svix-signature'),
      value: fc.oneof(headerValue, fc.constantFrom('', 'v1,', 'v1,AAAA', '1e300', '-1', '99999999999999999999', 'v2,xyz v1,')),
    }),
    { freq: 6, nil: null }, // fast-check: nil (no garbled header) 1 time in 6
  ),
});

/**
 * A path segment as bytes on the wire: random characters and malformed percent-escapes. Dot
 * segments (`.`, `..`, `%2e%2e`) are left out: URL normalisation makes them another path (a page's 404).
 */
const hostileSegment = fc.oneof(
  fc.constantFrom('%FF', '%C0%AE', '%', '%%', '%2', '%G1', '%00', '%2F', '%E2%82', 'alpha%', '%u0041', 'a.b', '...'),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(..."abcXYZ019-_~:@!$&'()*+,;=".split('')),
        fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`),
        fc.constant('%'),
      ),
      { minLength: 1, maxLength: 20 },
    )
    .map((parts) => parts.join(''))
    .filter((seg) => !/^(\.|%2e)+$/i.test(seg)),
);

const ingestPlan = fc.record({
  body: bodyPlan,
  headers: headerPlan,
  path: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: hostileSegment }),
});
type IngestPlan = typeof ingestPlan extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------- ingest cases

function buildIngestCase(plan: IngestPlan, i: number): Case {
  let payload: Buffer;
  let validIds: string[] | undefined;
  const b = plan.body;
  switch (b.t) {
    case 'mixed': {
      const valid = Array.from({ length: b.valid }, (_, j) => ({
        id: `fz-${i}-${j}`,
        token: `fz-tok-${i}-${j}`,
        type: 'session.opened',
        at: at(i * 10 + j),
        data: {},
      }));
      const all = [...valid, ...b.invalid];
      payload = Buffer.from(toJson({ events: b.order.map((k) => all[k]) }));
      validIds = valid.map((e) => e.id);
      break;
    }
    case 'json':
      payload = Buffer.from(toJson(b.value));
      break;
    case 'bytes':
      payload = Buffer.from(b.bytes);
      break;
    case 'deep': {
      const event = `{"id":"deep-${i}","token":"deep-tok-${i}","type":"session.opened","at":"${at(0)}","data":${nested(b.depth)}}`;
      payload = Buffer.from(b.inData ? `{"events":[${event}]}` : nested(b.depth));
      break;
    }
    case 'huge': {
      const big = 'y'.repeat(b.size);
      const ev = { id: `huge-${i}`, token: b.where === 'token' ? big : `huge-tok-${i}`, type: 'session.opened', at: at(0), data: {} };
      if (b.where === 'data') Object.assign(ev, { data: { big } });
      payload = Buffer.from(b.where === 'raw' ? big : JSON.stringify({ events: [ev] }));
      break;
    }
    default:
      throw new Error('unknown body plan');
  }
  const h = plan.headers;
  const msgId = `msg_fz_${i}`;
  const now = new Date();
  const signAt =
    h.signature === 'stale' ? new Date(now.getTime() - 3_600_000) : h.signature === 'future' ? new Date(now.getTime() + 3_600_000) : now;
  const secret = h.signature === 'wrong-secret' ? generateSecret() : h.signature === 'other-server' ? OTHER_SECRET : SECRET;
  const signature = new Webhook(secret).sign(msgId, signAt, payload.toString('utf8'));
  const ts = String(Math.floor(signAt.getTime() / 1000));
  const headers: Record<string, string> = {};
  if (h.contentType !== null) headers['content-type'] = h.contentType;
  if (h.signature === 'svix') Object.assign(headers, { 'svix-id': msgId, 'svix-timestamp': ts, 'svix-signature': signature });
  else if (h.signature !== 'missing') {
    Object.assign(headers, {
      'webhook-id': msgId,
      'webhook-timestamp': ts,
      'webhook-signature': h.signature === 'garbled' ? `v1,${signature.slice(3).split('').reverse().join('')}` : signature,
    });
  }
  if (h.signature === 'tampered') payload = Buffer.concat([payload, Buffer.from(' ')]);
  if (h.garble) headers[h.garble.name] = h.garble.value;
  const path = `/api/v1/ingest/${plan.path ?? SERVER}`;
  // Only a correctly signed, untouched batch on the real server must have its valid events stored.
  const clean = h.signature === 'valid' && h.garble === null && plan.path === null && h.contentType === 'application/json';
  return {
    kind: `ingest:${b.t}:${h.signature}${plan.path === null ? '' : ':path'}`,
    method: 'POST',
    path,
    headers,
    body: payload,
    validIds: clean ? validIds : undefined,
  };
}

// ---------------------------------------------------------------- query cases

const GET_ROUTES = API_ROUTES.filter((r) => r.method === 'GET');

const hostileParamValue = fc.oneof(
  fc.constantFrom(
    '1e300',
    '1.5',
    '-1',
    '0',
    '9999999999990000',
    '-9999999999990000',
    'now+999999999w',
    'now-999999999w',
    'NaN',
    'Infinity',
    '%00',
    'a%00b',
    '%',
    '%FF',
    '%C0%AE',
    '99999999999999999999999999',
    'eyJrZXkiOjEuNX0',
    'eyJrZXkiOjFlMzAwfQ',
    'eyJ0IjoiXHUwMDAwIn0',
    'bm90IGpzb24',
    '9999-12-31T23:59:59.999-23:59',
    'true',
    '[]',
    '{}',
  ),
  fc.string({ unit: 'binary', maxLength: 60 }).map(encodeURIComponent),
  fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v) ?? '').toString('base64url')),
  // Node refuses a request head over 16 KiB (431, before the app): 6 × 1,500 digits stay under it.
  fc.integer({ min: 0, max: 1_500 }).map((n) => '9'.repeat(n)),
);

const queryPlan = fc.record({
  route: fc.integer({ min: 0, max: GET_ROUTES.length - 1 }),
  params: fc.array(
    fc.record({
      name: fc.oneof(
        { weight: 5, arbitrary: fc.constant<string | null>(null) },
        { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
      ),
      value: hostileParamValue,
    }),
    { maxLength: 6 },
  ),
  segments: fc.array(fc.oneof(fc.constant(SERVER), hostileSegment), { minLength: 3, maxLength: 3 }),
});
type QueryPlan = typeof queryPlan extends fc.Arbitrary<infer T> ? T : never;

function buildQueryCase(plan: QueryPlan, i: number): Case {
  const route = GET_ROUTES[plan.route];
  const names = Object.keys(route.query?.shape ?? {});
  let n = 0;
  const path = route.path.replace(/\{[^}]+\}/g, () => plan.segments[n++]);
  // A null name picks one of the route's own parameters (repeated names make arrays).
  const pairs = plan.params.map((p, k) => `${p.name ?? encodeURIComponent(names[(i + k) % Math.max(1, names.length)] ?? 'x')}=${p.value}`);
  return {
    kind: `query:${route.operationId}`,
    method: 'GET',
    path: pairs.length ? `${path}?${pairs.join('&')}` : path,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  };
}

// ---------------------------------------------------------------- checks

interface Tally {
  cases: number;
  byStatus: Map<number, number>;
  status503: number;
  mixedChecked: number;
  validExpected: number;
  /** Every valid event id of the clean mixed batches, looked up in the database afterwards. */
  sampleIds: string[];
  failures: string[];
}

function check(c: Case, a: Answer, t: Tally): void {
  t.cases++;
  t.byStatus.set(a.status, (t.byStatus.get(a.status) ?? 0) + 1);
  const where = `${c.kind} ${c.method} ${c.path.slice(0, 160)} (body ${c.body?.length ?? 0} bytes) → ${a.status} ${a.body.slice(0, 200)}`;
  if (a.status === 503) {
    t.status503++;
    if (!a.headers['retry-after']) t.failures.push(`503 without Retry-After: ${where}`);
    return;
  }
  if (a.status >= 500) {
    t.failures.push(`5xx: ${where}`);
    return;
  }
  if (a.status >= 400) {
    let code: unknown;
    try {
      code = (JSON.parse(a.body) as { error?: { code?: unknown } }).error?.code;
    } catch {
      code = undefined;
    }
    if (typeof code !== 'string' || code === '') t.failures.push(`4xx without a JSON error code: ${where}`);
    return;
  }
  if (c.validIds) {
    if (a.status !== 200 && a.status !== 207) {
      t.failures.push(`a signed batch answered neither 200 nor 207: ${where}`);
      return;
    }
    const accepted = (JSON.parse(a.body) as { accepted: number }).accepted;
    t.mixedChecked++;
    t.validExpected += c.validIds.length;
    // A random "invalid" event may by chance be valid, so at least the built valid ones are new.
    if (accepted < c.validIds.length) t.failures.push(`accepted ${accepted}, expected at least ${c.validIds.length}: ${where}`);
    t.sampleIds.push(...c.validIds);
  }
}

/** Builds each case only when it is sent, so at most IN_FLIGHT bodies (up to 1 MiB each) are held. */
async function runAll<P>(plans: readonly P[], build: (plan: P, i: number) => Case, t: Tally): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const i = next++;
      const c = build(plans[i], i);
      check(c, await send(c), t);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

const newTally = (): Tally => ({
  cases: 0,
  byStatus: new Map(),
  status503: 0,
  mixedChecked: 0,
  validExpected: 0,
  sampleIds: [],
  failures: [],
});

function report(name: string, seed: number, t: Tally, ms: number): void {
  const statuses = [...t.byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`);
  console.log(
    `fuzz ${name} (${app.provider}): seed ${seed}, ${t.cases} requests in ${(ms / 1000).toFixed(1)} s ` +
      `(${Math.round(t.cases / (ms / 1000))}/s, ${IN_FLIGHT} in flight); statuses ${statuses.join(' ')}; ` +
      `503: ${t.status503}; mixed batches checked ${t.mixedChecked} (${t.validExpected} valid events); failures ${t.failures.length}`,
  );
}

// ---------------------------------------------------------------- tests

test('fixed cases: inputs the fuzz (or issue 10) found are refused with a JSON 4xx, the valid rest stored', async () => {
  const fixed: Case[] = [
    ...['%FF', '%C0%AE', '%', 'alpha%'].map((seg) => ({
      kind: 'fixed:path',
      method: 'POST' as const,
      path: `/api/v1/ingest/${seg}`,
      headers: {},
      body: Buffer.from('{}'),
    })),
    {
      kind: 'fixed:stats',
      method: 'GET',
      path: '/api/v1/stats?from=9999999999990000',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    },
    {
      kind: 'fixed:sessions',
      method: 'GET',
      path: '/api/v1/sessions?cursor=1e300&token=a%00b',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    },
  ];
  const t = newTally();
  await runAll(fixed, (c) => c, t);
  assert.deepEqual(t.failures, []);
  for (const [s] of t.byStatus) assert.ok(s >= 400 && s < 500, `status ${s}`);
  // Found by this fuzz: an invalid `type` nested thousands deep overflowed JSON.stringify in the
  // validator's message (500); now a 207 that stores the valid rest.
  const deepType = { id: 'deep-type', token: 'deep-type-token', type: new RawJson(nested(6_000)), at: at(0), data: {} };
  const plan: IngestPlan = {
    body: { t: 'mixed', valid: 2, invalid: [deepType], order: [0, 2, 1] },
    headers: { signature: 'valid', contentType: 'application/json', garble: null },
    path: null,
  };
  const batch = newTally();
  await runAll([plan], (p) => buildIngestCase(p, INGEST_CASES + 1), batch);
  assert.deepEqual(batch.failures, []);
  assert.deepEqual([...batch.byStatus], [[207, 1]]);
  assert.equal(batch.mixedChecked, 1);
});

test(`${INGEST_CASES} hostile ingest requests: no 5xx, JSON 4xx, valid events of mixed batches stored`, async () => {
  const plans = fc.sample(ingestPlan, { seed: INGEST_SEED, numRuns: INGEST_CASES });
  const t = newTally();
  const started = Date.now();
  await runAll(plans, buildIngestCase, t);
  report('ingest', INGEST_SEED, t, Date.now() - started);
  if (t.failures.length)
    console.log(
      app
        .output()
        .split('\n')
        .filter((l) => /error|Error/.test(l))
        .slice(0, 10)
        .join('\n')
        .slice(0, 4000),
    );
  assert.deepEqual(t.failures.slice(0, 20), [], `${t.failures.length} failures (seed ${INGEST_SEED})`);
  assert.equal(t.status503, 0, 'no 503 expected: the database is up');
  assert.ok(t.mixedChecked > 300, `only ${t.mixedChecked} clean mixed batches`);
  let stored = 0;
  for (let k = 0; k < t.sampleIds.length; k += 500) {
    const ids = t.sampleIds.slice(k, k + 500);
    const [{ n }] = await app.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM "Event" WHERE "eventId" IN (${ids.map(() => '?').join(',')})`,
      ids,
    );
    stored += Number(n);
  }
  assert.equal(stored, t.sampleIds.length, 'every valid event of a clean mixed batch is stored');
});

test(`${QUERY_CASES} hostile query requests on every GET route: no 5xx, JSON 4xx`, async () => {
  const plans = fc.sample(queryPlan, { seed: QUERY_SEED, numRuns: QUERY_CASES });
  const t = newTally();
  const started = Date.now();
  await runAll(plans, buildQueryCase, t);
  report('query', QUERY_SEED, t, Date.now() - started);
  assert.deepEqual(t.failures.slice(0, 20), [], `${t.failures.length} failures (seed ${QUERY_SEED})`);
  assert.equal(t.status503, 0, 'no 503 expected: the database is up');
  const routesHit = new Set(plans.map((p) => p.route));
  assert.equal(routesHit.size, GET_ROUTES.length, 'every GET route was fuzzed');
});
