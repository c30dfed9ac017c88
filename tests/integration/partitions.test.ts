// Daily partitions of "Event" and "DeadLetter" on PostgreSQL (migration 20261201030000,
// lib/store/partitions.ts, lib/retention/prune-events.ts): the offline migration of a database
// that already holds rows, per-event idempotency across partitions (also under concurrency),
// partitions created ahead, and retention dropping whole days. SQLite keeps plain tables: there
// the same ingest and retention calls must behave as before (checked at the end). Event identity on
// PostgreSQL is the unpartitioned "EventKey" (migration 20261205010000): its backfill, its keys
// going with their events (row deletes, dropped days, a drop that stopped midway), and concurrent
// batches sharing ids in opposite orders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { pruneDeadLetters, pruneEvents } from '@/lib/retention/prune-events';
import { readDeadLetter } from '@/lib/store/dead-letters';
import {
  DAY_MS,
  dayStart,
  ensureDailyPartitions,
  ensurePartitionsAhead,
  listDailyPartitions,
  listExpiredPartitions,
  partitionName,
} from '@/lib/store/partitions';
import { migrationsRootBefore } from '../../scripts/bench/common';
import { createTestDatabase, testProvider, type TestDatabase } from '../support/test-database';

const PARTITION_MIGRATION = '20261201030000_partition_events';
const EVENT_KEY_MIGRATION = '20261205010000_event_key';
const NOW = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const pg = testProvider() === 'postgresql';

function timeline(token: string, startMs: number, n = 3): any[] {
  const types = ['session.opened', 'stream.dropped', 'session.closed'];
  return Array.from({ length: n }, (_, i) => ({ id: `${token}-${i}`, token, type: types[i % 3], at: iso(startMs + i * 100), data: {} }));
}

let testDb: TestDatabase;
let db: Db;

before(async () => {
  testDb = await createTestDatabase();
});
after(async () => {
  await db?.close();
  await testDb?.drop();
});

const count = async (where = '', params: unknown[] = []) =>
  Number((await db.sql.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event" ${where}`, params))[0].n);
/** PostgreSQL: every stored event has its key and every key its event, at the same time. */
async function assertKeysMatchEvents(message: string) {
  const orphans = await db.sql.query<{ side: string; eventId: string }>(
    `SELECT 'key without event' AS "side", k."eventId" FROM "EventKey" k
      WHERE NOT EXISTS (SELECT 1 FROM "Event" e WHERE e."server" = k."server" AND e."eventId" = k."eventId" AND e."at" = k."at")
     UNION ALL
     SELECT 'event without key', e."eventId" FROM "Event" e
      WHERE NOT EXISTS (SELECT 1 FROM "EventKey" k WHERE k."server" = e."server" AND k."eventId" = e."eventId" AND k."at" = e."at")
     ORDER BY 1, 2`,
  );
  assert.deepEqual(orphans, [], message);
}

test(
  'the offline migration partitions a database that already holds events and dead letters, keeping every row',
  { skip: !pg },
  async () => {
    const config = readDatabaseConfig({ DATABASE_URL: testDb.url });
    const before = await runMigrations(config, migrationsRootBefore(PARTITION_MIGRATION));
    assert.ok(!before.applied.includes(PARTITION_MIGRATION));
    db = openDb(config);
    const old = dayStart(NOW - 40 * DAY_MS);
    const events = [
      ...timeline('mig-old', old + 3_600_000),
      ...timeline('mig-recent', NOW - 3_600_000),
      // Far outside any daily partition the migration creates: lands in the default partition.
      ...timeline('mig-future', Date.parse('2100-01-01T00:00:00Z')),
      ...timeline('mig-ancient', Date.parse('2001-01-01T00:00:00Z')),
    ];
    assert.deepEqual((await ingestEvents(db, 'alpha', events, { now: NOW })).rejected, []);
    // A dead letter received 40 days ago and one now (an invalid event in each request).
    await ingestEvents(db, 'alpha', [{ id: 'bad-old', token: 't', type: 'nope', at: iso(old), data: {} }], { now: old + 1000 });
    await ingestEvents(db, 'alpha', [{ id: 'bad-new', token: 't', type: 'nope', at: iso(NOW), data: {} }], { now: NOW });
    const rowsBefore = await db.sql.query('SELECT * FROM "Event" ORDER BY "server", "eventId"');
    const lettersBefore = await db.sql.query('SELECT * FROM "DeadLetter" ORDER BY "id"');
    assert.equal(rowsBefore.length, 12);
    assert.equal(lettersBefore.length, 2);

    const applied = await runMigrations(config);
    assert.deepEqual(applied.applied, [PARTITION_MIGRATION]);
    const kinds = await db.sql.query<{ relname: string; relkind: string }>(
      `SELECT relname, relkind FROM pg_class WHERE relname IN ('Event', 'DeadLetter') ORDER BY relname`,
    );
    assert.deepEqual(
      kinds.map((k) => [k.relname, k.relkind]),
      [
        ['DeadLetter', 'p'],
        ['Event', 'p'],
      ],
    );
    assert.deepEqual(await db.sql.query('SELECT * FROM "Event" ORDER BY "server", "eventId"'), rowsBefore);
    assert.deepEqual(await db.sql.query('SELECT * FROM "DeadLetter" ORDER BY "id"'), lettersBefore);
    // Dead letters are still found by id alone (their ids are app-made UUIDs; the key gained receivedAt).
    for (const l of lettersBefore as { id: string; eventId: string }[])
      assert.equal((await readDeadLetter(db.sql, l.id))?.eventId, l.eventId);
    const names = (await listDailyPartitions(db.sql, 'event')).map((p) => p.name);
    assert.ok(names.includes(partitionName('event', old)), 'a day with rows has its partition');
    assert.ok(names.includes(partitionName('event', dayStart(NOW + 7 * DAY_MS))), 'a week ahead exists');
    const inDefault = await db.sql.query<{ eventId: string }>(`SELECT "eventId" FROM "Event_default" ORDER BY "eventId"`);
    assert.deepEqual(
      inDefault.map((r) => r.eventId),
      ['mig-ancient-0', 'mig-ancient-1', 'mig-ancient-2', 'mig-future-0', 'mig-future-1', 'mig-future-2'],
    );
    const keys = await db.sql.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS "def" FROM pg_constraint WHERE conname IN ('Event_pkey', 'DeadLetter_pkey') AND conrelid IN ('"Event"'::regclass, '"DeadLetter"'::regclass) ORDER BY conname`,
    );
    assert.deepEqual(
      keys.map((k) => k.def),
      ['PRIMARY KEY (id, "receivedAt")', 'PRIMARY KEY (server, "eventId", at)'],
    );
    // The migrated database takes new events and still reads sessions from the moved rows.
    assert.equal((await ingestEvents(db, 'alpha', [timeline('mig-recent', NOW - 3_600_000, 4)[3]], { now: NOW })).accepted, 1);
    const [session] = await db.sql.query<{ eventCount: number }>(`SELECT "eventCount" FROM "Session" WHERE "token" = 'mig-recent'`);
    assert.equal(Number(session.eventCount), 4);
    await assertKeysMatchEvents('the keys stay one per event through the partitioning');
  },
);

test('the EventKey migration backfills one key per stored event; resends of them stay duplicates', { skip: !pg }, async () => {
  const other = await createTestDatabase();
  const config = readDatabaseConfig({ DATABASE_URL: other.url });
  const odb = openDb(config);
  try {
    const before = await runMigrations(config, migrationsRootBefore(EVENT_KEY_MIGRATION));
    assert.ok(!before.applied.includes(EVENT_KEY_MIGRATION));
    assert.equal((await odb.sql.query(`SELECT to_regclass('"EventKey"') AS "t"`))[0].t, null);
    await ensureDailyPartitions(odb.sql, 'event', NOW - 3 * DAY_MS, NOW);
    // Rows an earlier release stored (its ingest probed the partitions for the id): three days, two servers.
    const rows = [
      ['alpha', 'old-0', 'old-t', 'session.opened', NOW - 3 * DAY_MS],
      ['alpha', 'old-1', 'old-t', 'stream.dropped', NOW - 2 * DAY_MS],
      ['alpha', 'old-2', 'old-t', 'session.closed', NOW - 3_600_000],
      ['beta', 'old-0', 'old-t', 'session.opened', NOW - 3_600_000],
    ];
    for (const [server, id, token, type, at] of rows)
      await odb.sql.execute(
        `INSERT INTO "Event" ("server","eventId","token","type","at","seq","data","receivedAt") VALUES (?, ?, ?, ?, ?, NULL, '{}', ?)`,
        [server, id, token, type, at, NOW],
      );
    const applied = await runMigrations(config);
    assert.deepEqual(applied.applied, [EVENT_KEY_MIGRATION]);
    const keys = await odb.sql.query<{ server: string; eventId: string; at: number }>(
      `SELECT "server", "eventId", "at" FROM "EventKey" ORDER BY "server", "eventId"`,
    );
    assert.deepEqual(
      keys.map((k) => [k.server, k.eventId, Number(k.at)]),
      rows.map((r) => [r[0], r[1], r[4]]).sort((a, b) => `${a[0]}/${a[1]}`.localeCompare(`${b[0]}/${b[1]}`)),
    );
    // A resend at another time (another partition) is a duplicate; a new id is stored.
    const resend = { id: 'old-1', token: 'old-t', type: 'stream.dropped', at: iso(NOW - 60_000), data: {} };
    const r = await ingestEvents(odb, 'alpha', [resend, { ...resend, id: 'old-3', type: 'session.closed' }], { now: NOW });
    assert.deepEqual([r.accepted, r.duplicates], [1, 1]);
    assert.equal(Number((await odb.sql.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "eventId" = 'old-1'`))[0].n), 1);
  } finally {
    await odb.close();
    await other.drop();
  }
});

test('an event id stays unique per server across partitions: a resend with another time is a duplicate', { skip: !pg }, async () => {
  const first = { id: 'dup-1', token: 'dup-a', type: 'session.opened', at: iso(NOW - 2 * 3_600_000), data: {} };
  assert.equal((await ingestEvents(db, 'alpha', [first], { now: NOW })).accepted, 1);
  const sameTime = await ingestEvents(db, 'alpha', [first], { now: NOW });
  assert.deepEqual([sameTime.accepted, sameTime.duplicates], [0, 1]);
  // Another day (another partition), the default partition, another token: all the same event id.
  for (const at of [NOW - 3 * DAY_MS, NOW + 2 * DAY_MS, Date.parse('2099-06-01T00:00:00Z')]) {
    for (const token of ['dup-a', 'dup-b']) {
      const r = await ingestEvents(db, 'alpha', [{ ...first, token, at: iso(at) }], { now: NOW });
      assert.deepEqual([r.accepted, r.duplicates], [0, 1], `resend at ${iso(at)} with ${token}`);
    }
  }
  assert.equal(await count(`WHERE "eventId" = 'dup-1'`), 1);
  // The same id on another server is another event.
  assert.equal((await ingestEvents(db, 'beta', [{ ...first, at: iso(NOW - DAY_MS) }], { now: NOW })).accepted, 1);
});

test('concurrent resends of one id with different times and tokens store exactly one row', { skip: !pg }, async () => {
  for (let round = 0; round < 15; round++) {
    const id = `race-${round}`;
    const sends = Array.from({ length: 4 }, (_, i) =>
      ingestEvents(
        db,
        'alpha',
        [{ id, token: `race-${round}-${i}`, type: 'session.opened', at: iso(NOW - i * DAY_MS - round), data: {} }],
        {
          now: NOW,
        },
      ),
    );
    const results = await Promise.all(sends);
    assert.equal(
      results.reduce((n, r) => n + r.accepted, 0),
      1,
      `round ${round}: one accepted`,
    );
    assert.equal(await count(`WHERE "eventId" = ?`, [id]), 1, `round ${round}: one row`);
  }
  await assertKeysMatchEvents('one key per stored event after the races');
});

test(
  'batches sharing ids in opposite orders, each with tokens of its own, wait on each other in one order and never deadlock',
  { skip: !pg },
  async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `cross-${String(i).padStart(2, '0')}`);
    const batch = (side: string, order: readonly string[]) =>
      order.map((id, i) => ({ id, token: `cross-${side}-${i % 5}`, type: 'stream.dropped', at: iso(NOW - (i % 3) * DAY_MS), data: {} }));
    // A third transaction holds the middle id, so both batches are in flight with part of their ids
    // inserted when it lets go. Inserted in the order each batch lists them, batch a would then hold
    // cross-00..19 and want cross-21.., batch b hold cross-39..21 and want cross-19..: a deadlock.
    const holder = new Client({ connectionString: testDb.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`INSERT INTO "EventKey" ("server", "eventId", "at") VALUES ('alpha', 'cross-20', 0)`);
      const a = ingestEvents(db, 'alpha', batch('a', ids), { now: NOW });
      const b = ingestEvents(db, 'alpha', batch('b', [...ids].reverse()), { now: NOW });
      const waiting = async () =>
        Number(
          (
            await db.sql.query<{ n: number }>(
              `SELECT COUNT(*) AS "n" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock'`,
            )
          )[0].n,
        );
      const deadline = Date.now() + 10_000;
      while ((await waiting()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await waiting(), 2, 'both batches wait on a key');
      await holder.query('ROLLBACK');
      const [ra, rb] = await Promise.all([a, b]);
      assert.deepEqual([ra.rejected, rb.rejected], [[], []]);
      assert.equal(ra.accepted + rb.accepted, ids.length, 'each id accepted once');
      assert.equal(ra.duplicates + rb.duplicates, ids.length, 'and refused once');
    } finally {
      await holder.end();
    }
    assert.equal(await count(`WHERE "eventId" LIKE 'cross-%'`), ids.length);
    await assertKeysMatchEvents('one key per stored event after the crossed batches');
  },
);

test('partitions are created ahead, idempotently, and take over rows the default partition held for their day', { skip: !pg }, async () => {
  const far = dayStart(NOW + 30 * DAY_MS);
  assert.equal((await ingestEvents(db, 'alpha', timeline('ahead', far + 1000), { now: NOW })).accepted, 3);
  assert.equal(Number((await db.sql.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event_default" WHERE "token" = 'ahead'`))[0].n), 3);
  const created = await ensurePartitionsAhead(db.sql, NOW, 31);
  assert.ok(created.includes(partitionName('event', far)));
  assert.ok(created.includes(partitionName('deadLetter', far)));
  assert.deepEqual(await ensurePartitionsAhead(db.sql, NOW, 31), [], 'a second run creates nothing');
  assert.equal(Number((await db.sql.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event_default" WHERE "token" = 'ahead'`))[0].n), 0);
  assert.equal(
    Number(
      (await db.sql.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "${partitionName('event', far)}" WHERE "token" = 'ahead'`))[0].n,
    ),
    3,
  );
  // Ids stay unique after the move too.
  assert.equal((await ingestEvents(db, 'alpha', timeline('ahead', far + 5000), { now: NOW })).duplicates, 3);
});

test(
  'retention drops whole expired days, keeps a day a still-active session began on, and deletes old rows in the default partition',
  { skip: !pg },
  async () => {
    const dropDay = dayStart(NOW - 50 * DAY_MS);
    const spanDay = dayStart(NOW - 45 * DAY_MS);
    await ensureDailyPartitions(db.sql, 'event', dropDay, spanDay);
    await ensureDailyPartitions(db.sql, 'deadLetter', dropDay, dropDay);
    const ended = Array.from({ length: 10 }, (_, i) => timeline(`gone-${i}`, dropDay + i * 60_000)).flat();
    const spanning = [
      ...timeline('span', spanDay + 1000, 2),
      { id: 'span-late', token: 'span', type: 'session.closed', at: iso(NOW - DAY_MS), data: {} },
    ];
    // An ended session that began the day before spanDay and crossed into it: spanDay is kept, so its
    // rows there go by batched DELETE.
    const crossing = timeline('cross', spanDay - 150);
    assert.deepEqual((await ingestEvents(db, 'alpha', [...ended, ...spanning, ...crossing], { now: NOW })).rejected, []);
    await ingestEvents(db, 'alpha', [{ id: 'bad-drop', token: 't', type: 'nope', at: iso(dropDay), data: {} }], { now: dropDay + 5000 });
    const sessions = await db.sql.query('SELECT * FROM "Session" ORDER BY "server", "token"');

    const r = await pruneEvents(db.sql, { days: 30, batchSize: 2, pauseMs: 0, now: NOW });
    const names = (await listDailyPartitions(db.sql, 'event')).map((p) => p.name);
    assert.ok(!names.includes(partitionName('event', dropDay)), 'the expired day is dropped whole');
    assert.ok(names.includes(partitionName('event', spanDay)), 'the day an active session began on stays');
    assert.ok(r.partitionsDropped >= 1);
    assert.equal(await count(`WHERE "token" LIKE 'gone-%'`), 0);
    assert.equal(await count(`WHERE "token" = 'cross'`), 0, 'an ended timeline in a kept day is deleted row by row');
    assert.equal(await count(`WHERE "token" = 'span'`), 3, 'the active timeline stays whole');
    assert.equal(await count(`WHERE "token" = 'mig-ancient'`), 0, 'old rows in the default partition are deleted');
    assert.equal(await count(`WHERE "token" = 'mig-future'`), 3);
    assert.equal(await count(`WHERE "token" = 'mig-recent'`), 4);
    assert.equal(await count(`WHERE "token" = 'mig-old'`), 0);
    assert.ok(r.deleted >= 30 + 3 + 3 + 3, `deleted ${r.deleted}`);
    assert.deepEqual(await db.sql.query('SELECT * FROM "Session" ORDER BY "server", "token"'), sessions, 'summaries stay');
    await assertKeysMatchEvents('the keys of pruned events went with them, the others stay');
    assert.deepEqual(await listExpiredPartitions(db.sql), [], 'no detached partition left behind');
    // A pruned event's id is forgotten with it; a kept one's is still a duplicate.
    const resent = await ingestEvents(db, 'alpha', [{ ...ended[0], at: iso(NOW - 60_000) }, spanning[0]], { now: NOW });
    assert.deepEqual([resent.accepted, resent.duplicates], [1, 1]);

    const letters = await pruneDeadLetters(db.sql, { days: 30, batchSize: 2, pauseMs: 0, now: NOW });
    assert.ok(letters.partitionsDropped >= 1);
    const left = await db.sql.query<{ eventId: string }>(`SELECT "eventId" FROM "DeadLetter" ORDER BY "eventId"`);
    assert.deepEqual(
      left.map((l) => l.eventId),
      ['bad-new'],
    );
    assert.ok(!(await listDailyPartitions(db.sql, 'deadLetter')).some((p) => p.name === partitionName('deadLetter', dropDay)));
  },
);

test(
  'a day detached but not yet dropped (a retention run that stopped midway) keeps its keys until the next run finishes it',
  { skip: !pg },
  async () => {
    const day = dayStart(NOW - 60 * DAY_MS);
    await ensureDailyPartitions(db.sql, 'event', day, day);
    const events = Array.from({ length: 7 }, (_, i) => timeline(`halt-${i}`, day + i * 60_000)).flat();
    assert.equal((await ingestEvents(db, 'alpha', events, { now: NOW })).accepted, events.length);
    const name = partitionName('event', day);
    // What dropDailyPartition's first transaction leaves when the process dies right after it.
    await db.sql.execute(`ALTER TABLE "Event" DETACH PARTITION "${name}"`);
    await db.sql.execute(`ALTER TABLE "${name}" RENAME TO "${name}_expired"`);
    assert.deepEqual(await listExpiredPartitions(db.sql), [{ name: `${name}_expired`, rows: events.length }]);
    const keysOf = async () =>
      Number((await db.sql.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "EventKey" WHERE "eventId" LIKE 'halt-%'`))[0].n);
    assert.equal(await keysOf(), events.length);
    const resend = await ingestEvents(db, 'alpha', [{ ...events[0], at: iso(NOW - 60_000) }], { now: NOW });
    assert.deepEqual([resend.accepted, resend.duplicates], [0, 1], 'the keys outlive the detached rows');

    const r = await pruneEvents(db.sql, { days: 30, batchSize: 4, pauseMs: 0, now: NOW });
    assert.ok(r.partitionsDropped >= 1 && r.deleted >= events.length, JSON.stringify(r));
    assert.deepEqual(await listExpiredPartitions(db.sql), []);
    assert.equal((await db.sql.query(`SELECT to_regclass(?) AS "t"`, [`"${name}_expired"`]))[0].t, null, 'dropped');
    assert.equal(await keysOf(), 0, 'its keys are gone');
    await assertKeysMatchEvents('no other key went');
  },
);

test('SQLite keeps one table per kind and the same idempotency and retention', { skip: pg }, async () => {
  const config = readDatabaseConfig({ DATABASE_URL: testDb.url });
  await runMigrations(config);
  db = openDb(config);
  assert.deepEqual(await ensurePartitionsAhead(db.sql, NOW, 7), []);
  const first = { id: 'dup-1', token: 'dup-a', type: 'session.opened', at: iso(NOW - 40 * DAY_MS), data: {} };
  assert.equal((await ingestEvents(db, 'alpha', [first], { now: NOW })).accepted, 1);
  assert.equal((await ingestEvents(db, 'alpha', [{ ...first, at: iso(NOW - DAY_MS) }], { now: NOW })).duplicates, 1);
  const r = await pruneEvents(db.sql, { days: 30, batchSize: 10, pauseMs: 0, now: NOW });
  assert.deepEqual([r.deleted, r.partitionsDropped], [1, 0]);
  assert.equal(await count(), 0);
});
