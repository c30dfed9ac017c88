// The leader's incident sweep must cost what was written since its last pass, not the history
// (the seeded soak: a 2-million-session backlog blocked the event loop ~10 s every pass).
// - Each page's range starts at its own position: with the cursor as its only index bound (the
//   keyset's OR is none), page k re-read the k-1 pages before it; with "updatedAt" as its only bound,
//   a page inside a tie re-read the tie.
// - A pass that reads to the end moves the cursor to the pass's start, even when the newest
//   flagged session is older: held there, every pass of a healthy fleet re-read everything since.
// - Pages re-read within the overlap behind the cursor do not spend the pass's page budget: when the
//   overlap held more flagged sessions than the budget (a naive storm), the cursor never moved again.
// - The cursor never passes the pass's own now, and a cursor stored ahead of it (a restart after the
//   host clock stepped back, a leader on a host behind) does not hide the sessions written since.
// One simulated clock throughout: ingest stamps with the tests' `now` and the sweep runs on it, not
// capped at the database's (capAtDatabaseClock: false); instances on different clocks are
// tests/integration/instance-clock-skew.test.ts's part.
// SQLite, or PostgreSQL with DOORWATCH_TEST_DATABASE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recordingSql } from '../support/recording-sql';
import { sweepIncidents, sweepOrigin } from '@/lib/incidents/sweep-incidents';
import { flaggedSessionsSince, readCursor, writeCursor, type FlaggedSession } from '@/lib/store/flagged-sessions';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { addServer } from '@/lib/store/servers/server-registry';
import { linkedTokens } from '@/lib/store/incident-sessions';
import { listUnresolvedIncidents } from '@/lib/store/incidents';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { naiveSession } from '../support/naive-session';

const database = migratedDatabaseForFile();

test('a page after the first is bounded below by its own position, not the cursor', async () => {
  const { sql, sent } = recordingSql();
  const since = 1_000;
  await flaggedSessionsSince(sql, since, { updatedAt: 50_000, server: 's', token: 't' }, 500);
  await flaggedSessionsSince(sql, since, null, 500);
  await flaggedSessionsSince(sql, 90_000, { updatedAt: 50_000, server: 's', token: 't' }, 500);
  // Past the cursor, the page's whole position is the bound (a row value: an index range on every
  // column, so a page inside a tie of "updatedAt" does not re-read the tie); before it, the cursor.
  assert.match(sent[0].text, /\("updatedAt", "server", "token"\) > \(\?, \?, \?\)/);
  assert.doesNotMatch(sent[0].text, /"updatedAt" >= \?/);
  assert.deepEqual(
    sent.map((s) => s.params.slice(0, -1)),
    [[50_000, 's', 't'], [since], [90_000]],
  );
});

test('a pass that reads to the end moves the cursor to its start, flagged sessions or not', async () => {
  assert.equal(await readCursor(database().sql, 'sessions'), null);
  const before = Date.now();
  const report = await sweepIncidents(database().sql, before, {
    quietMs: 600_000,
    deadlockThresholdMs: 300_000,
    capAtDatabaseClock: false,
  });
  assert.equal(report.sessions, 0);
  const cursor = await readCursor(database().sql, 'sessions');
  assert.ok(cursor !== null && cursor >= before && cursor <= Date.now(), `cursor ${cursor}, pass from ${before}`);
});

test('pages re-read behind the cursor do not spend the budget: a storm in the overlap still moves on', async () => {
  await addServer(database(), 'storm');
  const cursor = Date.now() - 30_000;
  await writeCursor(database().sql, 'sessions', cursor);
  // Five flagged sessions written 10 s before the cursor (inside the 60 s overlap: seen last pass), two after it.
  const behind = ['s-b1', 's-b2', 's-b3', 's-b4', 's-b5'];
  const ahead = ['s-a1', 's-a2'];
  for (const token of behind) await ingestEvents(database(), 'storm', naiveSession(token, cursor - 20_000), { now: cursor - 10_000 });
  for (const token of ahead) await ingestEvents(database(), 'storm', naiveSession(token, cursor - 20_000), { now: cursor + 5_000 });
  // Two pages of two: before the fix both went on the overlap, and the two new sessions were never reached.
  const report = await sweepIncidents(database().sql, Date.now(), {
    quietMs: 600_000,
    deadlockThresholdMs: 300_000,
    capAtDatabaseClock: false,
    paging: { page: 2, maxPages: 2 },
  });
  assert.equal(report.sessions, behind.length + ahead.length);
  const [incident] = (await listUnresolvedIncidents(database().sql)).filter((i) => i.server === 'storm');
  assert.ok(incident, 'an incident for the storm');
  assert.deepEqual([...(await linkedTokens(database().sql, incident.id, [...behind, ...ahead]))].sort(), [...behind, ...ahead].sort());
  assert.ok((await readCursor(database().sql, 'sessions'))! >= cursor + 5_000);
});

test('flagged sessions sharing one updatedAt (a bulk load) are paged through once each, in key order, across servers', async () => {
  await addServer(database(), 'tie-a');
  await addServer(database(), 'tie-b');
  // One stamp for all of them, as a restore or a bulk load leaves it; days back, before any other test's rows.
  const tieAt = Date.now() - 5 * 86_400_000;
  const tokens = { 'tie-a': ['t-3', 't-1', 't-4', 't-2'], 'tie-b': ['t-2', 't-5', 't-1'] };
  for (const [server, list] of Object.entries(tokens))
    await ingestEvents(
      database(),
      server,
      list.flatMap((token) => naiveSession(token, tieAt - 60_000)),
      { now: tieAt },
    );
  const seen: string[] = [];
  let after: FlaggedSession | null = null;
  for (let pages = 0; pages < 10; pages++) {
    const page: FlaggedSession[] = (await flaggedSessionsSince(database().sql, tieAt, after, 3)).filter((s) => s.updatedAt === tieAt);
    if (page.length === 0) break;
    seen.push(...page.map((s) => `${s.server}/${s.token}`));
    after = page[page.length - 1];
  }
  assert.deepEqual(seen, ['tie-a/t-1', 'tie-a/t-2', 'tie-a/t-3', 'tie-a/t-4', 'tie-b/t-1', 'tie-b/t-2', 'tie-b/t-5']);
});

test('where a pass starts: the stored cursor, or the last day when there is none or it is ahead of now', () => {
  const now = 1_800_000_000_000;
  assert.equal(sweepOrigin(null, now), now - 86_400_000);
  assert.equal(sweepOrigin(now - 5_000, now), now - 5_000);
  // Within the overlap ahead (a stamp taken a moment after the pass's now): read from it, as before.
  assert.equal(sweepOrigin(now + 60_000, now), now + 60_000);
  assert.equal(sweepOrigin(now + 60_001, now), now - 86_400_000);
  assert.equal(sweepOrigin(now + 3_600_000, now), now - 86_400_000);
});

test('a cursor left an hour ahead by a clock that stepped back does not hide the sessions written since', async () => {
  await addServer(database(), 'stepped');
  const now = Date.now();
  // The last pass ran while the host clock was an hour ahead; the process restarted after it stepped back.
  await writeCursor(database().sql, 'sessions', now + 3_600_000);
  await ingestEvents(database(), 'stepped', naiveSession('s-step', now - 5_000), { now });
  const report = await sweepIncidents(database().sql, now + 1_000, {
    quietMs: 600_000,
    deadlockThresholdMs: 300_000,
    capAtDatabaseClock: false,
  });
  assert.ok(report.sessions >= 1);
  const [incident] = (await listUnresolvedIncidents(database().sql)).filter((i) => i.server === 'stepped');
  assert.ok(incident, 'the naive resume written after the step opened its incident');
  assert.deepEqual([...(await linkedTokens(database().sql, incident.id, ['s-step']))], ['s-step']);
  assert.equal(await readCursor(database().sql, 'sessions'), now + 1_000, 'the cursor is back on this clock');
});

test('a session stamped ahead of the pass is read, and does not carry the cursor past the pass', async () => {
  await addServer(database(), 'ahead');
  const now = Date.now() + 10_000_000; // past every cursor the tests before wrote
  await writeCursor(database().sql, 'sessions', now - 1_000);
  // Written by an instance whose clock runs ten minutes ahead of the leader's.
  await ingestEvents(database(), 'ahead', naiveSession('s-ahead', now), { now: now + 600_000 });
  await sweepIncidents(database().sql, now, { quietMs: 600_000, deadlockThresholdMs: 300_000, capAtDatabaseClock: false });
  assert.equal(await readCursor(database().sql, 'sessions'), now, 'held at the pass, not at the session ahead of it');
  // A session the leader's clock writes next is still ahead of the cursor, and is read by the next pass.
  await ingestEvents(database(), 'ahead', naiveSession('s-next', now), { now: now + 2_000 });
  await sweepIncidents(database().sql, now + 3_000, { quietMs: 600_000, deadlockThresholdMs: 300_000, capAtDatabaseClock: false });
  const [incident] = (await listUnresolvedIncidents(database().sql)).filter((i) => i.server === 'ahead');
  assert.deepEqual([...(await linkedTokens(database().sql, incident.id, ['s-ahead', 's-next']))].sort(), ['s-ahead', 's-next']);
});
