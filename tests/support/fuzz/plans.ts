// The fuzz's inputs (issue 10): fast-check arbitraries for hostile ingest requests (bodies, fields,
// headers, signatures, paths) and hostile query requests (every GET of API_ROUTES), and the
// builders that turn a sampled plan into the exact bytes sent. Shared by the fuzz test files,
// which split the cases between them so they run side by side.
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { TEST_ADMIN_TOKEN } from '../app-server';
import { generateSecret } from '@/lib/contract/server-secret';
import { API_ROUTES } from '@/lib/contract/api/routes';

export const SERVER = 'alpha';
export const OTHER = 'beta';
export const SECRET = generateSecret();
export const OTHER_SECRET = generateSecret();
const MiB = 1024 * 1024;

export interface Case {
  kind: string;
  method: 'GET' | 'POST';
  /** Sent byte for byte (fetch would normalise a malformed escape). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Ids of the events of this batch that are valid and must be stored. */
  validIds?: string[];
}

// ---------------------------------------------------------------- building blocks

export const at = (ms: number) => new Date(Date.parse('2026-11-29T10:00:00.000Z') + ms).toISOString();

export function nested(depth: number): string {
  return '['.repeat(depth) + '1' + ']'.repeat(depth);
}

/** JSON text spliced in as is: nesting 100,000 deep is cheap as text, but no object survives JSON.stringify. */
export class RawJson {
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

export const ingestPlan = fc.record({
  body: bodyPlan,
  headers: headerPlan,
  path: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: hostileSegment }),
});
export type IngestPlan = typeof ingestPlan extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------- ingest cases

export function buildIngestCase(plan: IngestPlan, i: number): Case {
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

export const GET_ROUTES = API_ROUTES.filter((r) => r.method === 'GET');

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

export const queryPlan = fc.record({
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

export function buildQueryCase(plan: QueryPlan, i: number): Case {
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
