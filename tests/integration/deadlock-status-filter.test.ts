// The session list's `deadlock=` filter (ongoing, ended, end_unreported) on a real database of each
// provider: for any reader's clock and maximum it selects exactly the rows whose `deadlock`, as the list
// itself reads them (lib/boundary/deadlock-as-of.ts), has one of the asked statuses; and `ongoing` with
// probes excluded, from `stuckSince`, is exactly what the stats count as stuck now. The overview's
// "Show stuck sessions" links there: it listed `flag=deadlock&state=upgrade_pending`, which also
// showed the deadlocks whose end went unreported, so its list was longer than its count.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { storeBatch } from '@/lib/ingest/store-batch';
import { parseQuery } from '@/lib/http/parse-input';
import { ZSessionListQuery } from '@/lib/contract/api/sessions';
import { ZStatsQuery } from '@/lib/contract/api/stats';
import { DEADLOCK_STATUSES } from '@/lib/contract/summary';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { deadlockStatus } from '@/lib/boundary/deadlock-as-of';
import { parseSessionQuery } from '@/lib/queries/session-filter';
import { listSessions } from '@/lib/queries/session-list';
import { computeStats } from '@/lib/queries/stats';
import { parseStatsQuery } from '@/lib/queries/stats-query';
import { addServer } from '@/lib/store/servers/server-registry';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { searchParams } from '../support/search-params';

const T0 = Date.parse('2026-11-29T10:00:00.000Z');
const MIN = 60_000;
const THRESHOLD = 10_000;
/** After every stored event: the reader's clocks the property draws lie beyond it. */
const LAST_EVENT = T0 + 110 * MIN;
const database = migratedDatabaseForFile();

/** opened, durable upgrade, drop, boundary resume answered naively at start + 250 ms (the deadlock's start). */
function naive(prefix: string, token: string, start: number, endAfterMs: number | null): DoorwatchEvent[] {
  const at = (ms: number) => new Date(start + ms).toISOString();
  const events: { id: string; token: string; type: string; at: string; data: Record<string, unknown> }[] = [
    { id: `${prefix}.0`, token, type: 'session.opened', at: at(0), data: {} },
    { id: `${prefix}.1`, token, type: 'upgrade.accepted', at: at(100), data: { eventId: 3 } },
    { id: `${prefix}.2`, token, type: 'stream.dropped', at: at(150), data: { reason: 'reset' } },
    { id: `${prefix}.3`, token, type: 'resume.requested', at: at(200), data: { lastEventId: 3 } },
    { id: `${prefix}.4`, token, type: 'resume.accepted', at: at(250), data: { replayed: 0 } },
  ];
  if (endAfterMs !== null)
    events.push({ id: `${prefix}.5`, token, type: 'session.timeout', at: at(250 + endAfterMs), data: { idleMs: endAfterMs } });
  return events as DoorwatchEvent[];
}

async function list(o: Record<string, string | string[]>, nowMs: number, maxMs: number) {
  const q = parseSessionQuery(parseQuery(ZSessionListQuery, searchParams({ limit: '500', ...o })), nowMs, THRESHOLD, maxMs);
  return (await listSessions(database(), q)).sessions;
}

const tokens = (rows: { token: string }[]) => rows.map((s) => s.token).sort();

/** A reader's clock after every event; a third of them within 20 s of the last, while other-late is a candidate. */
const readerClock = fc.oneof(
  fc.integer({ min: LAST_EVENT, max: T0 + 240 * MIN }),
  fc.integer({ min: LAST_EVENT, max: LAST_EVENT + 20_000 }),
  fc.integer({ min: LAST_EVENT, max: T0 + 240 * MIN }),
);

/** Each row of a list with what the clock can change in it: its deadlock's status, or "candidate". */
async function statuses(o: Record<string, string | string[]>, nowMs: number, maxMs: number): Promise<string[]> {
  const rows = await list(o, nowMs, maxMs);
  const status = (s: (typeof rows)[number]) => (s.deadlock ? deadlockStatus(s.deadlock) : s.deadlockCandidateSince ? 'candidate' : '-');
  return rows.map((s) => `${s.token}:${status(s)}`).sort();
}

describe('the session list by deadlock status', () => {
  // Inside the suite: a root-level one would not wait for migratedDatabaseForFile's (see there).
  before(async () => {
    const db = database();
    await addServer(db, 'edge');
    await addServer(db, 'other');
    // Naive resumes every 10 minutes for 100 minutes: every other one reported its end after 300 s, one
    // after 5 s (shorter than the threshold), the rest never did.
    const events: DoorwatchEvent[] = [];
    for (let i = 0; i <= 10; i++) {
      const end = i === 3 ? 5_000 : i % 2 === 0 ? 300_000 : null;
      events.push(...naive(`e${i}`, `edge-${i}`, T0 + i * 10 * MIN, end));
    }
    // A session with no boundary at all.
    events.push({ id: 'plain.0', token: 'edge-plain', type: 'session.opened', at: new Date(T0 + 5 * MIN).toISOString(), data: {} });
    assert.deepEqual((await ingestEvents(db, 'edge', events, { now: LAST_EVENT })).rejected, []);
    // other-late's naive answer came 5 s before the last event: a candidate still at the earliest clocks drawn.
    const other = [...naive('o1', 'other-1', T0 + 95 * MIN, null), ...naive('o2', 'other-late', LAST_EVENT - 5_250, null)];
    assert.deepEqual((await ingestEvents(db, 'other', other, { now: LAST_EVENT })).rejected, []);
    // A door probe's session stuck the same way: listed, but never in the fleet's "stuck now".
    await storeBatch(db.sql, 'edge', naive('probe', 'probe-1', T0 + 99 * MIN, null), {
      now: LAST_EVENT,
      writtenAt: LAST_EVENT,
      floorAtDatabaseClock: false,
      deadlockThresholdMs: THRESHOLD,
      synthetic: { runId: 'run-1', tokens: ['probe-1'] },
    });
  });

  test('at one clock: stuck now, ended, end unreported and any of them', async () => {
    const now = T0 + 125 * MIN;
    const maxMs = 60 * MIN;
    // Unended: edge-1 and edge-5 began 75 min ago or more (end unreported); edge-7 (55 min), edge-9 and the others are ongoing.
    assert.deepEqual(tokens(await list({ deadlock: 'ongoing' }, now, maxMs)), ['edge-7', 'edge-9', 'other-1', 'other-late', 'probe-1']);
    assert.deepEqual(tokens(await list({ deadlock: 'end_unreported' }, now, maxMs)), ['edge-1', 'edge-5']);
    assert.deepEqual(tokens(await list({ deadlock: 'ended' }, now, maxMs)), [
      'edge-0',
      'edge-10',
      'edge-2',
      'edge-3',
      'edge-4',
      'edge-6',
      'edge-8',
    ]);
    assert.deepEqual(tokens(await list({ deadlock: ['ongoing', 'end_unreported'], server: 'edge', synthetic: 'exclude' }, now, maxMs)), [
      'edge-1',
      'edge-5',
      'edge-7',
      'edge-9',
    ]);
    // Without a maximum nothing is end unreported: every unended deadlock is ongoing.
    assert.deepEqual(await list({ deadlock: 'end_unreported' }, now, 0), []);
    assert.deepEqual(tokens(await list({ deadlock: 'ongoing' }, now, 0)), [
      'edge-1',
      'edge-5',
      'edge-7',
      'edge-9',
      'other-1',
      'other-late',
      'probe-1',
    ]);
    // The three together are the deadlock flag.
    assert.deepEqual(
      tokens(await list({ deadlock: [...DEADLOCK_STATUSES] }, now, maxMs)),
      tokens(await list({ flag: 'deadlock' }, now, maxMs)),
    );
  });

  test('an unknown status is a 400-style refusal naming the parameter', () => {
    assert.throws(
      () => parseQuery(ZSessionListQuery, searchParams({ deadlock: 'stuck' })),
      (e: { code?: string }) => e.code === 'invalid_deadlock',
    );
  });

  test('any clock and maximum: the filter keeps exactly the rows whose deadlock reads as an asked status', async () => {
    await fc.assert(
      fc.asyncProperty(
        readerClock,
        fc.oneof(fc.constant(0), fc.integer({ min: THRESHOLD + 1, max: 150 * MIN })),
        fc.subarray([...DEADLOCK_STATUSES], { minLength: 1 }),
        async (now, maxMs, statuses) => {
          const all = await list({}, now, maxMs);
          const want = all.filter((s) => s.deadlock !== null && statuses.includes(deadlockStatus(s.deadlock)));
          assert.deepEqual(tokens(await list({ deadlock: statuses }, now, maxMs)), tokens(want));
        },
      ),
      { numRuns: 40 },
    );
  });

  test('ongoing, probes excluded, from stuckSince: the very sessions the stats count as stuck now', async () => {
    await fc.assert(
      fc.asyncProperty(
        readerClock,
        fc.oneof(fc.constant(0), fc.integer({ min: THRESHOLD + 1, max: 150 * MIN })),
        fc.constantFrom(null, 'edge', 'other'),
        async (now, maxMs, server) => {
          const range = { from: new Date(now - 15 * MIN).toISOString(), to: new Date(now).toISOString() };
          const q = parseStatsQuery(parseQuery(ZStatsQuery, searchParams({ ...range, ...(server && { server }), split: 'server' })), now);
          const stats = await computeStats(database(), { ...q, thresholdMs: THRESHOLD, maxMs });
          const since = stats.deadlocks.stuckSince;
          const from = since !== null && Date.parse(since) < Date.parse(stats.range.from) ? since : stats.range.from;
          const listed = await list(
            { deadlock: 'ongoing', synthetic: 'exclude', from, to: stats.range.to, ...(server && { server }) },
            now,
            maxMs,
          );
          assert.equal(listed.length, stats.deadlocks.stuckNow);
          assert.ok(listed.every((s) => s.deadlock?.ongoing === true && !s.synthetic));
          // Each server's card links the same way, from its own stuckSince.
          for (const split of stats.byServer ?? []) {
            const own = split.stuckSince;
            const early = own !== null && Date.parse(own) < Date.parse(stats.range.from);
            const perServer = await list(
              { deadlock: 'ongoing', synthetic: 'exclude', server: split.server, from: early ? own : stats.range.from, to: stats.range.to },
              now,
              maxMs,
            );
            assert.equal(perServer.length, split.stuckNow, split.server);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  test('nextChangeAt: nothing the clock changes comes before it, and something changes at it', async () => {
    const FILTERS: Record<string, string | string[]>[] = [
      {},
      { flag: 'deadlock' },
      { deadlock: 'ongoing' },
      { deadlock: 'end_unreported', server: 'edge' },
      { server: 'other' },
      { token: 'edge-' },
    ];
    await fc.assert(
      fc.asyncProperty(
        readerClock,
        fc.oneof(fc.constant(0), fc.integer({ min: THRESHOLD + 1, max: 150 * MIN })),
        fc.constantFrom(...FILTERS),
        async (now, maxMs, filter) => {
          const q = parseSessionQuery(parseQuery(ZSessionListQuery, searchParams({ limit: '500', ...filter })), now, THRESHOLD, maxMs);
          const answer = await listSessions(database(), q);
          const before = await statuses(filter, now, maxMs);
          // The filter without its deadlock conditions: the rows whose deadlock the clock can move in or out.
          const { deadlock: _d, flag: _f, ...base } = filter;
          if (answer.nextChangeAt === null) {
            assert.deepEqual(await statuses(filter, now + 24 * 60 * MIN, maxMs), before, 'null, yet a day later the list differs');
            return;
          }
          const at = Date.parse(answer.nextChangeAt);
          assert.ok(at > now, `${answer.nextChangeAt} is not after the answer's now`);
          assert.deepEqual(await statuses(filter, at - 1, maxMs), before, 'the list changed before nextChangeAt');
          assert.notDeepEqual(await statuses(base, at, maxMs), await statuses(base, now, maxMs), 'nothing changed at nextChangeAt');
        },
      ),
      { numRuns: 40 },
    );
  });
});
