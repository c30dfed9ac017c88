// Several instances on one database: two Doorwatch processes ingest interleaved batches of the
// same tokens at the same time (plus the same batches posted to both), and every Session row and
// Rollup row ends up exactly as a single instance given the same events in order. On PostgreSQL
// this is the production topology (per-token advisory xact locks, rollup rows upserted in
// (server, minute) order); on SQLite the same holds through its single writer lock.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { createTestDatabase, testProvider, type TestDatabase } from '../support/test-database';
import { generateSecret } from '@/lib/contract/server-secret';

const SECRET = generateSecret();
const SERVERS = { DOORWATCH_SERVERS: `alpha=${SECRET}` };
const t0 = Date.parse('2026-11-29T10:00:00.000Z');
const at = (ms: number) => new Date(t0 + ms).toISOString();

let shared: TestDatabase;
let a: AppServer;
let b: AppServer;
let single: AppServer;

/** A deterministic PRNG (mulberry32) so a failure replays. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 40 sessions across a few minutes: refusals, naive resumes with deadlocks, renegotiation chains, dual negotiations, drops. */
function fleet(): any[] {
  const out: any[] = [];
  for (let i = 0; i < 40; i++) {
    const token = `mi-${String(i).padStart(2, '0')}`;
    const base = (i % 8) * 20_000 + i * 250; // several sessions share each rollup minute
    const chained = i % 4 === 1;
    out.push({
      id: `${token}-o`,
      token,
      type: 'session.opened',
      at: at(base),
      data: chained ? { previousToken: `mi-${String(i - 1).padStart(2, '0')}` } : {},
    });
    out.push({ id: `${token}-u`, token, type: 'upgrade.accepted', at: at(base + 100), data: { eventId: 3 } });
    for (let d = 0; d < 1 + (i % 3); d++)
      out.push({ id: `${token}-d${d}`, token, type: 'stream.dropped', at: at(base + 150 + d), data: {} });
    out.push({ id: `${token}-r`, token, type: 'resume.requested', at: at(base + 200), data: { lastEventId: 3 } });
    switch (i % 4) {
      case 0:
        out.push({ id: `${token}-x`, token, type: 'resume.refused', at: at(base + 230 + (i % 5) * 10), data: {} });
        break;
      case 1:
        out.push({ id: `${token}-a`, token, type: 'resume.accepted', at: at(base + 240), data: { replayed: 0 } });
        out.push({ id: `${token}-t`, token, type: 'session.timeout', at: at(base + 60_240), data: { idleMs: 60_000 } });
        break;
      case 2:
        out.push({ id: `${token}-u2`, token, type: 'upgrade.accepted', at: at(base + 260), data: { eventId: 9 } });
        out.push({ id: `${token}-j`, token, type: 'upgrade.rejected', at: at(base + 270), data: { status: 409 } });
        break;
      default:
        out.push({ id: `${token}-a`, token, type: 'resume.accepted', at: at(base + 240), data: { replayed: 2 } });
        out.push({ id: `${token}-c`, token, type: 'session.closed', at: at(base + 5_000), data: {} });
    }
  }
  return out;
}

async function post(app: AppServer, events: unknown[]) {
  // A sender retries 503 (SQLite under two writers may answer it); anything else must be 200.
  for (let attempt = 0; ; attempt++) {
    const res = await postEvents(app.url, 'alpha', SECRET, events);
    if (res.status === 503 && attempt < 20) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { accepted: number; duplicates: number };
  }
}

async function snapshot(query: AppServer['query']) {
  const sessions = (await query('SELECT * FROM "Session" ORDER BY "server", "token"')).map(({ updatedAt, ...rest }) => rest);
  const rollups = await query('SELECT * FROM "Rollup" ORDER BY "server", "minute"');
  const [{ n: events }] = await query('SELECT COUNT(*) AS "n" FROM "Event"');
  return { sessions, rollups, events };
}

before(async () => {
  shared = await createTestDatabase();
  // PostgreSQL: a rolling deploy starts instances together (migrations and start-up steps take
  // turns under advisory locks). SQLite: one after the other.
  if (shared.provider === 'postgresql') {
    [a, b, single] = await Promise.all([
      startAppServer({ databaseUrl: shared.url, env: SERVERS }),
      startAppServer({ databaseUrl: shared.url, env: SERVERS }),
      startAppServer({ env: SERVERS }),
    ]);
  } else {
    a = await startAppServer({ databaseUrl: shared.url, env: SERVERS });
    b = await startAppServer({ databaseUrl: shared.url, env: SERVERS });
    single = await startAppServer({ env: SERVERS });
  }
});
after(async () => {
  await Promise.all([a?.stop(), b?.stop(), single?.stop()]);
  await shared?.drop();
});

test(`two instances on one ${testProvider()} database ingesting the same tokens at once lose no update`, async () => {
  const events = fleet();

  // Reference: one instance, events in order, one batch.
  assert.deepEqual(await post(single, events), { accepted: events.length, duplicates: 0, rejected: [] });

  // Two instances: the events shuffled into small batches that mix tokens, posted concurrently
  // (8 in flight), alternating instances; every fifth batch also goes to the other instance at the same time.
  const random = rng(20261129);
  const shuffled = [...events];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const batches: any[][] = [];
  for (let i = 0; i < shuffled.length;) {
    const n = 1 + Math.floor(random() * 6);
    batches.push(shuffled.slice(i, i + n));
    i += n;
  }
  const jobs: (() => Promise<{ accepted: number; duplicates: number }>)[] = [];
  batches.forEach((batch, i) => {
    const [first, second] = i % 2 === 0 ? [a, b] : [b, a];
    jobs.push(() => post(first, batch));
    if (i % 5 === 0) jobs.push(() => post(second, batch));
  });
  let next = 0;
  let accepted = 0;
  let duplicates = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < jobs.length) {
        const r = await jobs[next++]();
        accepted += r.accepted;
        duplicates += r.duplicates;
      }
    }),
  );
  assert.equal(accepted, events.length, 'each event accepted exactly once');
  assert.equal(
    duplicates,
    batches.filter((_, i) => i % 5 === 0).reduce((s, x) => s + x.length, 0),
  );

  const want = await snapshot(single.query);
  const got = await snapshot(shared.query);
  assert.equal(got.events, events.length);
  assert.equal(want.sessions.length, 40);
  assert.ok(want.rollups.length >= 3, 'several rollup minutes');
  assert.ok(want.sessions.some((s: any) => s.fRenegotiated === 1) && want.sessions.some((s: any) => s.fRefused === 1));
  assert.deepEqual(got.sessions, want.sessions);
  assert.deepEqual(got.rollups, want.rollups);

  // And both instances answer the same stats as the single one.
  const stats = async (app: AppServer) => {
    const res = await fetch(`${app.url}/api/v1/stats?from=${at(-60_000)}&to=${at(3_600_000)}`, {
      headers: { authorization: 'Bearer dw_test_admin_token_0123456789abcdef' },
    });
    assert.equal(res.status, 200);
    const { now, ...body } = await res.json();
    return body;
  };
  const reference = await stats(single);
  assert.deepEqual(await stats(a), reference);
  assert.deepEqual(await stats(b), reference);
});
