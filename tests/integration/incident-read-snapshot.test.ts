// The incident list and an incident's page are each read in one snapshot, on a real database of
// DOORWATCH_TEST_DATABASE's provider. A clean-clone CI once answered the list with an incident and
// totals of 0 (incident-workflow.test, PostgreSQL): the rows and the per-status counts were two
// parallel statements on two pooled connections, and the sweep's commit landed between them. Here
// that moment is made certain rather than waited for: one statement is held until the others have
// answered, a commit lands, then it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '@/lib/db/client';
import type { Sql, SqlExecutor } from '@/lib/db/sql';
import { incidentDetail, incidentList } from '@/lib/incidents/incident-read';
import { recordEvidence } from '@/lib/incidents/record-evidence';
import { migratedDatabaseForFile } from '../support/migrated-database';

const database = migratedDatabaseForFile();
const NOW = Date.parse('2026-12-06T12:00:00.000Z');

/**
 * `db` with one statement (the first matching `held`) kept back until every other statement sent
 * through it has answered; then `meanwhile` commits (through the real handle) and the held one runs.
 */
function withCommitBetween(db: Db, held: RegExp, meanwhile: () => Promise<void>): { db: Db; fired: () => boolean } {
  let inFlight = 0;
  let fired = false;
  const settled = async () => {
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 1));
  };
  const wrap = (ex: SqlExecutor): SqlExecutor => ({
    ...ex,
    async query<T>(text: string, params?: readonly unknown[]) {
      if (!fired && held.test(text)) {
        fired = true;
        await settled();
        await meanwhile();
        return ex.query<T>(text, params);
      }
      inFlight++;
      try {
        return await ex.query<T>(text, params);
      } finally {
        inFlight--;
      }
    },
  });
  const sql: Sql = {
    ...wrap(db.sql),
    transaction: (fn) => db.sql.transaction((tx) => fn(wrap(tx))),
    snapshot: (fn) => db.sql.snapshot((tx) => fn(wrap(tx))),
    close: () => db.sql.close(),
  };
  return { db: { ...db, sql }, fired: () => fired };
}

/** What the sweep writes for one flagged session: opens its server's incident, or joins it (link and count in one commit). */
const sweep = (server: string, token: string, at: number) =>
  database().sql.transaction((tx) => recordEvidence(tx, [{ server, kind: 'naive_resume', at, ref: token }], 'session', NOW));

test('the list: an incident opened between its statements is in both the rows and the totals, or in neither', async () => {
  const db = database();
  await sweep('edge-a', 'tok-a', NOW - 60_000);
  // The rows' statement is held until the counts have answered; the sweep opens a second incident meanwhile.
  const gated = withCommitBetween(db, /^SELECT \* FROM "Incident"/, async () => {
    await sweep('edge-b', 'tok-b', NOW);
  });
  const list = await incidentList(gated.db, { limit: 50, offset: 0 });
  assert.ok(gated.fired(), 'the commit landed between the statements');
  assert.equal(list.totals.all, list.incidents.length, JSON.stringify(list));
  assert.equal(list.total, list.incidents.length);
  assert.deepEqual(
    list.incidents.map((i) => i.server),
    ['edge-a'],
    'the snapshot is the one before the commit',
  );
  // And the next read sees it, in both.
  const next = await incidentList(db, { limit: 50, offset: 0 });
  assert.deepEqual(
    next.incidents.map((i) => i.server),
    ['edge-b', 'edge-a'],
  );
  assert.equal(next.totals.open, 2);
});

test("an incident's page: a session joining between its statements never outnumbers the incident's session count", async () => {
  const db = database();
  const { id } = await sweep('edge-c', 'tok-1', NOW - 60_000);
  // The session page is held until the incident's row (and the timeline's reads) have answered;
  // a second session joins meanwhile.
  const gated = withCommitBetween(db, /FROM "IncidentSession"[\s\S]*LIMIT/, async () => {
    await sweep('edge-c', 'tok-2', NOW - 30_000);
  });
  const page = await incidentDetail(gated.db, id, { sessionsLimit: 50, sessionsOffset: 0 }, NOW);
  assert.ok(gated.fired(), 'the commit landed between the statements');
  assert.equal(page.sessions.total, page.sessions.items.length, JSON.stringify(page.sessions));
  assert.equal(page.incident.sessionCount, 1);

  const next = await incidentDetail(db, id, { sessionsLimit: 50, sessionsOffset: 0 }, NOW);
  assert.equal(next.sessions.total, 2);
  assert.deepEqual(next.sessions.items.map((s) => s.token).sort(), ['tok-1', 'tok-2']);
});
