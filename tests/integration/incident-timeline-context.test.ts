// An incident's timeline tells its own evidence from what else went on on its server. The server's
// other alerts and its door probes are `context`; the incident's own alerts (linked, or on its measure
// in its window: the same rule resolving and going pending again) are not, and a busy server's other alerts never
// push them out of the timeline's limit. On a real database of each provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProbeResult } from '@/lib/contract/probe-result';
import { linkIncident } from '@/lib/alerts/incident-link';
import { incidentDetail } from '@/lib/incidents/incident-read';
import { SOURCE_LIMIT } from '@/lib/incidents/incident-timeline';
import { insertAlertTransition } from '@/lib/store/alert-transitions';
import { insertProbeRun } from '@/lib/store/probe-runs';
import { deadlockTransition } from '../support/alert-fixtures';
import { migratedDatabaseForFile } from '../support/migrated-database';

const database = migratedDatabaseForFile();
const NOW = Date.parse('2026-12-07T12:00:00.000Z');

const probe = (at: number): ProbeResult => ({
  target: 'http://127.0.0.1:1/mcp',
  startedAt: new Date(at).toISOString(),
  durationMs: 12,
  steps: [],
  classification: { verdict: 'pass', steps: [] },
});

test("a busy server's other alerts are context, and never crowd the incident's own out of its timeline", async () => {
  const db = database();
  // The deadlock rule fires: the firing opens the incident. It resolves and goes pending again.
  const firing = deadlockTransition({ id: 'own-firing', at: NOW - 600_000, kind: 'firing' });
  const { incidentId } = await db.sql.transaction(async (tx) => {
    await insertAlertTransition(tx, firing);
    return linkIncident(tx, firing, firing.at);
  });
  assert.ok(incidentId);
  await db.sql.transaction(async (tx) => {
    await insertAlertTransition(tx, deadlockTransition({ id: 'own-resolved', at: NOW - 590_000, kind: 'resolved', sequence: 2 }));
    await insertAlertTransition(tx, deadlockTransition({ id: 'own-pending', at: NOW - 580_000, kind: 'pending', sequence: 3 }));
  });
  // Then another rule flaps on the same server, more often than the limit, all after the incident's own;
  // the same rule on another server is not this incident's at all.
  await db.sql.transaction(async (tx) => {
    for (let i = 0; i < SOURCE_LIMIT + 50; i++)
      await insertAlertTransition(
        tx,
        deadlockTransition({
          id: `other-${i}`,
          at: NOW - 500_000 + i * 1000,
          kind: i % 2 ? 'resolved' : 'firing',
          ruleId: 'rule-naive',
          ruleName: 'Naive resume',
          measure: 'naive_resumes',
          sequence: i + 1,
        }),
      );
    await insertAlertTransition(tx, deadlockTransition({ id: 'elsewhere', at: NOW - 400_000, kind: 'firing', series: 'edge-2' }));
  });
  await insertProbeRun(db.sql, 'edge-1', probe(NOW - 300_000), 'schedule', 'probe-1');

  const d = await incidentDetail(db, incidentId, { sessionsLimit: 10, sessionsOffset: 0 }, NOW);
  const alerts = d.timeline.filter((e) => e.source === 'alert');
  const own = alerts.filter((e) => !e.context).map((e) => e.ref);
  assert.deepEqual(own, ['own-firing', 'own-resolved', 'own-pending'], "the incident's own alerts, linked or not");
  assert.equal(alerts[0]!.path, '/alerts?rule=rule-deadlocks', "each links to its rule's history");
  const other = alerts.filter((e) => e.context);
  assert.equal(other.length, SOURCE_LIMIT, 'the newest of the other alerts, up to the limit');
  assert.ok(
    other.every((e) => e.ref!.startsWith('other-')),
    'only the other rule',
  );
  assert.equal(other[0]!.ref, 'other-50', 'the newest 200 of 250');
  assert.ok(d.timelineTruncated);
  assert.ok(!alerts.some((e) => e.ref === 'elsewhere'), "another server's alerts are not in it");
  assert.deepEqual(
    d.timeline.filter((e) => e.source === 'probe').map((e) => [e.ref, e.context]),
    [['probe-1', true]],
    'a passing probe is context for a deadlock incident',
  );
  assert.ok(d.timeline.filter((e) => e.source === 'activity').every((e) => !e.context));
});
