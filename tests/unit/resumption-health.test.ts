import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { summarizeResumption } from '@/lib/boundary/resumption-health';
import { summarize } from '@/lib/boundary/summarize';
import { decideResume } from '@/lib/boundary/decide-resume';
import { ZEvent, validateEvent, type DoorwatchEvent } from '@/lib/contract/event';
import { RESUMPTION_FLAGS, ZResumptionHealth } from '@/lib/contract/resumption';
import { T0, Timeline, isoAt } from './support/timeline';
import { permute } from './support/histories';

const health = (tl: Timeline) => ZResumptionHealth.parse(summarizeResumption(tl.events));

describe('resumption health', () => {
  test('flags are alphabetical', () => {
    assert.deepEqual([...RESUMPTION_FLAGS], [...RESUMPTION_FLAGS].sort());
  });

  test('a full replay is a checked, healthy resume', () => {
    const tl = new Timeline()
      .opened(0)
      .dropped(10)
      .add('resume.requested', 20, { lastEventId: 'abc_1', ordinal: 2 })
      .add('resume.accepted', 25, { replayed: 3, available: 3 });
    assert.deepEqual(health(tl), { flags: [], checkedResumes: 1, lossyResumes: 0, idleResumes: 0, rejectedResumes: 0, abandonedAt: null });
  });

  test('replaying fewer than the store held is lossy; replaying none of them is also idle', () => {
    const lossy = new Timeline().opened(0).add('resume.accepted', 25, { replayed: 1, available: 3 });
    assert.deepEqual(health(lossy).flags, ['lossy_resume']);
    const idle = new Timeline().opened(0).add('resume.accepted', 25, { replayed: 0, available: 2 });
    const h = health(idle);
    assert.deepEqual(h.flags, ['idle_resume', 'lossy_resume']);
    assert.equal(h.idleResumes, 1);
    assert.equal(h.lossyResumes, 1);
    // Nothing after the cursor and nothing replayed is a correct (and idle-by-design) resume.
    assert.deepEqual(health(new Timeline().opened(0).add('resume.accepted', 25, { replayed: 0, available: 0 })).flags, []);
  });

  test('a resume.accepted without `available` (v1 senders) is not checked and flags nothing', () => {
    const h = health(new Timeline().opened(0).dropped(5).resume(10, 3).accepted(12, 0));
    assert.deepEqual(h, { flags: [], checkedResumes: 0, lossyResumes: 0, idleResumes: 0, rejectedResumes: 0, abandonedAt: null });
  });

  test('rejections: 400, 404 and 409 have flags; any status counts; none is terminal', () => {
    const tl = new Timeline()
      .opened(0)
      .add('resume.rejected', 10, { status: 409, reason: 'Conflict: Stream already has an active connection' })
      .add('resume.rejected', 11, { status: 400 })
      .add('resume.rejected', 12, { status: 503 });
    const h = health(tl);
    assert.deepEqual(h.flags, ['resume_conflict', 'unknown_cursor']);
    assert.equal(h.rejectedResumes, 3);
    assert.equal(summarize(tl.events, T0 + 60_000).state, 'sse_active');
    const ended = new Timeline()
      .opened(0)
      .closed(5)
      .add('resume.requested', 10, { lastEventId: 'x_1', ordinal: 1 })
      .add('resume.rejected', 11, { status: 404, reason: 'Session not found' });
    assert.deepEqual(health(ended).flags, ['resume_after_end']);
  });

  test('abandonment ends the session and is dated', () => {
    const tl = new Timeline().opened(0).add('session.abandoned', 30_000, { idleMs: 30_000 });
    const h = health(tl);
    assert.deepEqual(h.flags, ['abandoned']);
    assert.equal(h.abandonedAt, isoAt(30_000));
    assert.equal(summarize(tl.events, T0 + 60_000).state, 'terminated');
  });

  test('the resumption events leave the boundary summary of a v1 timeline unchanged', () => {
    const base = new Timeline().opened(0).upgrade(100, 41).dropped(160).resume(400, 41).refused(447);
    const withHealth = new Timeline()
      .opened(0)
      .upgrade(100, 41)
      .dropped(160)
      .resume(400, 41)
      .refused(447)
      .add('resume.rejected', 500, { status: 404 });
    const a = summarize(base.events, T0 + 60_000);
    const b = summarize(withHealth.events, T0 + 60_000);
    assert.deepEqual({ ...b, eventCount: a.eventCount, lastEventAt: a.lastEventAt }, a);
  });
});

describe('string SSE ids: the boundary rule uses the store ordinal, never the string', () => {
  test('a string id needs an ordinal (no guessing); null means the store does not know the cursor', () => {
    const base = { id: 'e1', token: 't', at: isoAt(0) };
    const bad = validateEvent({ ...base, type: 'resume.requested', data: { lastEventId: 'abc' } });
    assert.equal(bad.ok, false);
    assert.deepEqual(!bad.ok && bad.issues.map((i) => [i.code, i.path]), [['invalid_field', 'data.lastEventId']]);
    const badUp = validateEvent({ ...base, type: 'upgrade.accepted', data: { eventId: 'abc', ordinal: null } });
    assert.equal(badUp.ok, false);
    assert.ok(validateEvent({ ...base, type: 'resume.requested', data: { lastEventId: 'abc', ordinal: null } }).ok);
    assert.ok(validateEvent({ ...base, type: 'upgrade.accepted', data: { eventId: 'abc', ordinal: 7 } }).ok);
  });

  const upgraded = () => new Timeline().opened(0).add('upgrade.accepted', 100, { eventId: 'GET_100_zz', ordinal: 7 }).dropped(150);

  test('cursor ordinal ≥ the upgrade ordinal: at the boundary; below: a safe resume', () => {
    const at = upgraded().add('resume.requested', 200, { lastEventId: 'GET_100_zz', ordinal: 7 }).refused(210);
    assert.deepEqual(summarize(at.events, T0 + 60_000).flags, ['boundary', 'refused']);
    const below = upgraded().add('resume.requested', 200, { lastEventId: 'GET_099_aa', ordinal: 6 }).accepted(210, 1);
    assert.deepEqual(summarize(below.events, T0 + 60_000).flags, []);
    // String order would say the opposite ('a' > 'G'): the ordinal decides.
    const lexicallyLater = upgraded().add('resume.requested', 200, { lastEventId: 'a', ordinal: 3 }).accepted(210, 4);
    assert.deepEqual(summarize(lexicallyLater.events, T0 + 60_000).flags, []);
  });

  test('an unknown cursor (ordinal null) is like no cursor; decideResume agrees with the fold', () => {
    const tl = upgraded();
    assert.deepEqual(decideResume<string>(tl.events, { lastEventId: 'nope', ordinal: null }), {
      action: 'refuse',
      reason: 'upgrade_boundary',
      upgradeEventId: 7,
    });
    assert.deepEqual(decideResume<string>(tl.events, { lastEventId: 'GET_099_aa', ordinal: 6 }), {
      action: 'resume',
      fromEventId: 'GET_099_aa',
    });
  });
});

// ---- properties: any delivery order, any repeats, the same health -------------------------------

const stepArb = fc.oneof(
  fc.record({ type: fc.constant('resume.accepted' as const), replayed: fc.nat(4), available: fc.option(fc.nat(4), { nil: undefined }) }),
  fc.record({ type: fc.constant('resume.rejected' as const), status: fc.constantFrom(400, 404, 409, 500) }),
  fc.record({ type: fc.constant('resume.requested' as const), ordinal: fc.option(fc.nat(20), { nil: null }) }),
  fc.record({ type: fc.constant('stream.dropped' as const) }),
  fc.record({ type: fc.constant('session.abandoned' as const) }),
  fc.record({ type: fc.constant('session.closed' as const) }),
);

function build(steps: readonly Record<string, unknown>[], gaps: readonly number[]): DoorwatchEvent[] {
  let t = 0;
  const out: DoorwatchEvent[] = [ZEvent.parse({ id: 'e0', token: 'tok', type: 'session.opened', at: isoAt(0) })];
  steps.forEach((s, i) => {
    t += gaps[i % Math.max(gaps.length, 1)] ?? 1;
    const { type, ...rest } = s as { type: string } & Record<string, unknown>;
    const data =
      type === 'resume.requested'
        ? { lastEventId: `s_${rest.ordinal}`, ordinal: rest.ordinal }
        : type === 'resume.accepted'
          ? rest.available === undefined
            ? { replayed: rest.replayed }
            : rest
          : rest;
    out.push(ZEvent.parse({ id: `e${i + 1}`, token: 'tok', type, at: isoAt(t), seq: i, data }));
  });
  return out;
}

describe('properties: resumption health', () => {
  test('any permutation and duplication gives the deepEqual health', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { maxLength: 25 }),
        fc.array(fc.nat(3), { maxLength: 25 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (steps, gaps, swaps, dups) => {
          const events = build(steps, gaps);
          const expected = summarizeResumption(events);
          const copies = dups.map((i) => structuredClone(events[i % events.length]));
          assert.deepEqual(summarizeResumption(permute([...events, ...copies], swaps)), expected);
          // Counts are what the timeline says, whatever the order.
          const accepted = events.filter((e) => e.type === 'resume.accepted' && e.data.available !== undefined);
          assert.equal(expected.checkedResumes, accepted.length);
          assert.equal(expected.rejectedResumes, events.filter((e) => e.type === 'resume.rejected').length);
          assert.ok(expected.idleResumes <= expected.lossyResumes && expected.lossyResumes <= expected.checkedResumes);
          assert.equal(
            expected.flags.includes('abandoned'),
            events.some((e) => e.type === 'session.abandoned'),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
