// An alert that opens an incident, or brings a resolved one back, is named in the incident's thread by
// its rule, as a person knows it: the activity said "opened by alert <transition uuid>", which the
// operator reading the incident could do nothing with. On a real database of each provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkIncident } from '@/lib/alerts/incident-link';
import { incidentDetail } from '@/lib/incidents/incident-read';
import { insertAlertTransition, type AlertTransitionRow } from '@/lib/store/alert-transitions';
import { resolveIncident } from '@/lib/store/incidents';
import { deadlockTransition } from '../support/alert-fixtures';
import { migratedDatabaseForFile } from '../support/migrated-database';

const database = migratedDatabaseForFile();
const NOW = Date.parse('2026-12-06T12:00:00.000Z');

const firing = (id: string, at: number, sequence: number): AlertTransitionRow =>
  deadlockTransition({ id, kind: 'firing', at, sequence, ruleName: 'Ongoing deadlock "edge"', value: 4 });

async function fire(t: AlertTransitionRow): Promise<string> {
  const db = database();
  const link = await db.sql.transaction(async (tx) => {
    await insertAlertTransition(tx, t);
    return linkIncident(tx, t, t.at);
  });
  assert.ok(link.incidentId, 'the firing opened or joined an incident');
  return link.incidentId;
}

const activity = async (id: string) =>
  (await incidentDetail(database(), id, { sessionsLimit: 10, sessionsOffset: 0 }, NOW)).timeline
    .filter((e) => e.source === 'activity')
    .map((e) => e.summary);

test("an alert's firing opens the incident under its rule's name, and brings it back under it", async () => {
  const id = await fire(firing('tr-1', NOW - 120_000, 1));
  const [opened] = await activity(id);
  // Linked as it fires: the entry's own time is when it was seen, so the text does not repeat it.
  assert.equal(opened, 'opened by alert "Ongoing deadlock \\"edge\\""');
  assert.doesNotMatch(opened!, /tr-1/);

  await database().sql.transaction((tx) => resolveIncident(tx, id, 'an operator', NOW - 60_000));
  assert.equal(await fire(firing('tr-2', NOW - 30_000, 3)), id, 'the same incident, reopened');
  const regressed = (await activity(id)).find((s) => s.startsWith('regression'));
  assert.equal(
    regressed,
    `regression: alert "Ongoing deadlock \\"edge\\"" seen ${new Date(NOW - 30_000).toISOString()}, after it was resolved at ${new Date(NOW - 60_000).toISOString()}`,
  );
});
