// The open-or-join fold: one incident per server and kind, joined by later evidence, reopened as
// a regression by evidence after its resolution; any delivery order (one batch or many) gives
// the same incident.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { groupByIncident, openOrJoin, quietResolution, type Evidence, type IncidentState } from '@/lib/incidents/open-or-join';

const ev = (at: number, ref: string, kind: Evidence['kind'] = 'naive_resume', server = 'srv-a'): Evidence => ({ server, kind, at, ref });
const ids = () => {
  let n = 0;
  return () => `inc_${++n}`;
};

test('the first evidence opens an incident; later evidence joins it (first and last seen widen)', () => {
  const { next, activity } = openOrJoin(null, [ev(2000, 'b'), ev(1000, 'a')], ids());
  assert.equal(next!.status, 'open');
  assert.equal(next!.firstSeenAt, 1000);
  assert.equal(next!.lastSeenAt, 2000);
  assert.deepEqual(activity, [{ kind: 'opened', at: 1000, ref: 'a', version: null }]);
  const joined = openOrJoin(next, [ev(500, 'c'), ev(3000, 'd')], ids());
  assert.equal(joined.next!.id, next!.id);
  assert.equal(joined.next!.firstSeenAt, 500);
  assert.equal(joined.next!.lastSeenAt, 3000);
  assert.deepEqual(joined.activity, []);
});

test('evidence after the resolution reopens the incident as a regression; older evidence only joins', () => {
  const open = openOrJoin(null, [ev(1000, 'a')], ids()).next!;
  const resolved: IncidentState = {
    ...open,
    status: 'resolved',
    resolvedAt: 5000,
    resolvedBy: 'alice',
    acknowledgedAt: 2000,
    acknowledgedBy: 'bob',
  };
  const late = openOrJoin(resolved, [ev(4000, 'late')], ids());
  assert.equal(late.next!.status, 'resolved');
  assert.equal(late.next!.lastSeenAt, 4000);
  const back = openOrJoin(resolved, [ev(6000, 'x'), ev(7000, 'y')], ids());
  assert.equal(back.next!.status, 'open');
  assert.equal(back.next!.regressions, 1);
  assert.equal(back.next!.regressedAt, 6000);
  assert.equal(back.next!.acknowledgedBy, null, 'a regression needs a new acknowledgement');
  assert.deepEqual(
    back.activity.map((a) => a.kind),
    ['regressed'],
  );
});

test('evidence of another server or kind is refused by the fold and grouped apart', () => {
  const open = openOrJoin(null, [ev(1, 'a')], ids()).next!;
  assert.throws(() => openOrJoin(open, [ev(2, 'b', 'dual_negotiation')], ids()));
  const groups = groupByIncident([ev(1, 'a'), ev(2, 'b', 'dual_negotiation'), ev(3, 'c', 'naive_resume', 'srv-b'), ev(4, 'd')]);
  assert.deepEqual(
    groups.map((g) => g.map((e) => e.ref)),
    [['a', 'd'], ['b'], ['c']],
  );
});

test('quiet resolution: only after the quiet period, never while an alert of its kind fires', () => {
  assert.equal(quietResolution({ status: 'open', lastSeenAt: 0 }, 999, 1000, false), null);
  assert.equal(quietResolution({ status: 'acknowledged', lastSeenAt: 0 }, 1000, 1000, false), 1000);
  assert.equal(quietResolution({ status: 'open', lastSeenAt: 0 }, 5000, 1000, true), null);
  assert.equal(quietResolution({ status: 'resolved', lastSeenAt: 0 }, 5000, 1000, false), null);
});

const arbEvidence = fc.array(
  fc.record({
    server: fc.constantFrom('srv-a', 'srv-b'),
    kind: fc.constantFrom<Evidence['kind']>('naive_resume', 'probe_failure'),
    at: fc.integer({ min: 0, max: 10_000 }),
    ref: fc.string({ minLength: 1, maxLength: 4 }),
  }),
  { maxLength: 30 },
);

/** Folds batches in turn, per incident, from an optional resolved incident per key. */
function foldAll(batches: Evidence[][], resolvedAt: number | null): Map<string, IncidentState> {
  const incidents = new Map<string, IncidentState>();
  const newId = ids();
  for (const batch of batches) {
    for (const group of groupByIncident(batch)) {
      const key = `${group[0]!.server}/${group[0]!.kind}`;
      let current = incidents.get(key) ?? null;
      const { next } = openOrJoin(current, group, newId);
      current = next!;
      // The operator resolves each incident at `resolvedAt` right after it opened.
      if (resolvedAt !== null && !incidents.has(key)) current = { ...current, status: 'resolved', resolvedAt, resolvedBy: 'op' };
      incidents.set(key, current);
    }
  }
  return incidents;
}

const comparable = (m: Map<string, IncidentState>) =>
  [...m.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, s]) => [k, s.status, s.firstSeenAt, s.lastSeenAt, s.regressions, s.regressedAt]);

test('property: any delivery order and batching of the same evidence gives the same incidents', () => {
  fc.assert(
    fc.property(arbEvidence, fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 5 }), (evidence, seed, nBatches) => {
      const shuffled = [...evidence];
      let x = seed;
      for (let i = shuffled.length - 1; i > 0; i--) {
        x = (x * 1103515245 + 12345) % 2 ** 31;
        const j = x % (i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      const batches: Evidence[][] = Array.from({ length: nBatches }, () => []);
      shuffled.forEach((e, i) => batches[(i * 7 + seed) % nBatches]!.push(e));
      assert.deepEqual(comparable(foldAll(batches, null)), comparable(foldAll([evidence], null)));
      // Exactly one incident per server and kind present.
      const keys = new Set(evidence.map((e) => `${e.server}/${e.kind}`));
      assert.equal(foldAll(batches, null).size, keys.size);
    }),
  );
});

test('property: against an incident resolved at R, evidence after R reopens it exactly once in any order', () => {
  fc.assert(
    fc.property(arbEvidence, fc.integer({ min: 0, max: 10_000 }), (evidence, resolvedAt) => {
      const base: IncidentState = {
        ...openOrJoin(null, [ev(0, '0')], ids()).next!,
        status: 'resolved',
        resolvedAt,
        resolvedBy: 'op',
      };
      const mine = evidence.map((e) => ({ ...e, server: 'srv-a', kind: 'naive_resume' as const }));
      const forward = mine.reduce((s, e) => openOrJoin(s, [e], ids()).next!, base);
      const backward = [...mine].reverse().reduce((s, e) => openOrJoin(s, [e], ids()).next!, base);
      const recurs = mine.some((e) => e.at > resolvedAt);
      for (const s of [forward, backward]) {
        assert.equal(s.status, recurs ? 'open' : 'resolved');
        assert.equal(s.regressions, recurs ? 1 : 0);
      }
      assert.equal(forward.regressedAt, backward.regressedAt);
      assert.equal(forward.regressedAt, recurs ? Math.min(...mine.filter((e) => e.at > resolvedAt).map((e) => e.at)) : null);
    }),
  );
});
