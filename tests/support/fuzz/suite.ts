// The fuzz's harness (issue 10): one real app per test file, the cases sent IN_FLIGHT at a time,
// each answer checked. The promise: never a 5xx (a 503 must carry Retry-After and is counted),
// every 4xx a JSON error with a code, and the valid events of a mixed batch stored. Cases come
// from fixed seeds, so a failure is reproduced by running the file again; the seeds and counts are
// printed. The ingest cases are split by index between shard files (fuzz-ingest-N.test.ts) that
// run side by side; together they send every case of the seed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { startAppServer, TEST_ADMIN_TOKEN, type AppServer } from '../app-server';
import {
  at,
  buildIngestCase,
  buildQueryCase,
  GET_ROUTES,
  ingestPlan,
  nested,
  OTHER,
  OTHER_SECRET,
  queryPlan,
  RawJson,
  SECRET,
  SERVER,
  type Case,
  type IngestPlan,
} from './plans';

const INGEST_SEED = 1010;
const QUERY_SEED = 2020;
const INGEST_CASES = 10_000;
const QUERY_CASES = 2_000;
const IN_FLIGHT = 8;

let app: AppServer;
const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

/** Starts this file's app (before) and stops it (after). */
function useApp(): void {
  before(async () => {
    app = await startAppServer({
      env: { DOORWATCH_SERVERS: `${SERVER}=${SECRET},${OTHER}=${OTHER_SECRET}`, DOORWATCH_INGEST_RATE: '0' },
    });
  });
  after(async () => {
    agent.destroy();
    await app?.stop();
  });
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

/** The fixed cases and the query fuzz, on this file's own app. */
export function fuzzFixedAndQueries(): void {
  useApp();
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
}

/** Shard `shard` of `of` of the ingest fuzz (cases i with i % of === shard - 1), on this file's own app. */
export function fuzzIngestShard(shard: number, of: number): void {
  useApp();
  test(`ingest cases ${shard}/${of} of ${INGEST_CASES} (every ${of}th): no 5xx, JSON 4xx, valid events of mixed batches stored`, async () => {
    // The whole seed's sample, so case i is the same whichever shard sends it.
    const plans = fc.sample(ingestPlan, { seed: INGEST_SEED, numRuns: INGEST_CASES });
    const mine = plans.flatMap((plan, i) => (i % of === shard - 1 ? [{ plan, i }] : []));
    const t = newTally();
    const started = Date.now();
    await runAll(mine, ({ plan, i }) => buildIngestCase(plan, i), t);
    report(`ingest ${shard}/${of}`, INGEST_SEED, t, Date.now() - started);
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
    assert.ok(t.mixedChecked > 300 / of, `only ${t.mixedChecked} clean mixed batches`);
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
}
