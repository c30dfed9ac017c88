import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { summarize, DEFAULT_DEADLOCK_THRESHOLD_MS } from '@/lib/boundary/summarize';
import { ZSessionSummary, SESSION_FLAGS, SESSION_STATES, BOUNDARY_OUTCOMES } from '@/lib/contract/summary';
import { ZEvent } from '@/lib/contract/event';
import { T0, Timeline, isoAt, pendingUpgrade } from './support/timeline';

const NOW = T0 + 3_600_000; // an hour after the origin: well past any threshold
const at = (ms: number) => T0 + ms;

function sum(tl: Timeline, now: number | Date = NOW, options?: Parameters<typeof summarize>[2]) {
  const s = summarize(tl.events, now, options);
  // Every summary must satisfy the published schema.
  ZSessionSummary.parse(s);
  return s;
}

describe('constants', () => {
  test('states, flags, outcomes', () => {
    assert.deepEqual([...SESSION_STATES], ['sse_active', 'upgrade_pending', 'websocket_bound', 'terminated']);
    assert.deepEqual([...SESSION_FLAGS], [...SESSION_FLAGS].sort());
    assert.equal(SESSION_FLAGS.length, 7);
    assert.deepEqual([...BOUNDARY_OUTCOMES], ['refused', 'naive_resume', 'pending']);
    assert.equal(DEFAULT_DEADLOCK_THRESHOLD_MS, 10_000);
  });
});

describe('summarize: states', () => {
  test('sse_active after open; basic fields', () => {
    const s = sum(new Timeline('tok-A').opened(0).dropped(10).dropped(20), NOW, { server: 'srv-1' });
    assert.equal(s.state, 'sse_active');
    assert.equal(s.server, 'srv-1');
    assert.equal(s.token, 'tok-A');
    assert.equal(s.openedAt, isoAt(0));
    assert.equal(s.lastEventAt, isoAt(20));
    assert.equal(s.eventCount, 3);
    assert.equal(s.dropCount, 2);
    assert.deepEqual(s.flags, []);
    assert.equal(s.boundaryOutcome, null);
    assert.equal(s.previousToken, null);
  });

  test('server defaults to null; openedAt null without session.opened', () => {
    const s = sum(new Timeline().dropped(5));
    assert.equal(s.server, null);
    assert.equal(s.openedAt, null);
    assert.equal(s.state, 'sse_active');
  });

  test('upgrade_pending after upgrade.accepted', () => {
    assert.equal(sum(new Timeline().opened(0).upgrade(10, 3)).state, 'upgrade_pending');
  });

  test('websocket_bound after upgrade.completed', () => {
    assert.equal(sum(new Timeline().opened(0).upgrade(10, 3).completed(60)).state, 'websocket_bound');
  });

  test('a new upgrade after completion is pending again, and not dual', () => {
    const s = sum(new Timeline().opened(0).upgrade(10, 3).completed(60).upgrade(100, 9));
    assert.equal(s.state, 'upgrade_pending');
    assert.equal(s.flags.includes('dual_negotiation'), false);
    assert.equal(s.dualNegotiationCount, 0);
  });

  for (const end of ['refused', 'timeout', 'closed'] as const) {
    test(`terminated after ${end}, and final`, () => {
      const tl = new Timeline().opened(0).upgrade(10, 3);
      tl[end](50);
      tl.completed(60).upgrade(70, 8).dropped(80).resume(90, null);
      const s = sum(tl);
      assert.equal(s.state, 'terminated');
      assert.equal(s.flags.includes('boundary'), false, 'no boundary on a terminated session');
      assert.equal(s.flags.includes('dual_negotiation'), false);
    });
  }

  test('previousToken from session.opened', () => {
    assert.equal(sum(new Timeline('tok-B').opened(0, 'tok-A')).previousToken, 'tok-A');
  });

  test('eventCount counts distinct ids; repeats change nothing', () => {
    const tl = pendingUpgrade().resume(2_000, 5).refused(2_050);
    const once = summarize(tl.events, NOW);
    const twice = summarize([...tl.events, ...tl.events.slice().reverse()], NOW);
    assert.equal(once.eventCount, 5);
    assert.deepEqual(twice, once);
  });

  test('timestamps are normalised to UTC milliseconds', () => {
    const e = ZEvent.parse({
      id: 'a',
      token: 't',
      at: '2026-11-29T12:00:00.5+02:00',
      type: 'session.opened',
    });
    const s = summarize([e], NOW);
    assert.equal(s.openedAt, '2026-11-29T10:00:00.500Z');
    assert.equal(s.lastEventAt, '2026-11-29T10:00:00.500Z');
  });

  test('empty and mixed-token timelines are programming errors', () => {
    assert.throws(() => summarize([], NOW), RangeError);
    const a = new Timeline('tok-A').opened(0).events;
    const b = new Timeline('tok-B').opened(1).events;
    assert.throws(() => summarize([...a, ...b], NOW), /mixes tokens/);
  });
});

describe('summarize: boundary entry', () => {
  const cases: [string, number | null, boolean][] = [
    ['lastEventId below the upgrade event', 4, false],
    ['lastEventId equal to the upgrade event', 5, true],
    ['lastEventId above the upgrade event', 6, true],
    ['no lastEventId (fresh stream, same token)', null, true],
  ];
  for (const [name, lastEventId, boundary] of cases) {
    test(`${name} → ${boundary ? '' : 'not '}a boundary entry`, () => {
      const s = sum(pendingUpgrade().resume(2_000, lastEventId));
      assert.equal(s.flags.includes('boundary'), boundary);
      assert.equal(s.boundaryAt, boundary ? isoAt(2_000) : null);
      assert.equal(s.boundaryOutcome, boundary ? 'pending' : null);
      assert.equal(s.state, 'upgrade_pending');
    });
  }

  test('resume after upgrade.completed is not a boundary entry', () => {
    const s = sum(pendingUpgrade().completed(1_100).resume(2_000, 5).resume(2_100, null));
    assert.deepEqual(s.flags, []);
    assert.equal(s.boundaryOutcome, null);
  });

  test('resume with no upgrade in flight is not a boundary entry', () => {
    assert.deepEqual(sum(new Timeline().opened(0).dropped(5).resume(10, null).accepted(12)).flags, []);
  });

  test('the entry is the first boundary resume', () => {
    const s = sum(pendingUpgrade().resume(2_000, 3).resume(3_000, 5).resume(4_000, null));
    assert.equal(s.boundaryAt, isoAt(3_000));
    assert.equal(s.boundaryOutcome, 'pending');
  });

  test('with two upgrades pending, the original one bounds the boundary', () => {
    const tl = new Timeline().opened(0).upgrade(10, 5).upgrade(20, 9).resume(30, 6);
    assert.equal(sum(tl).flags.includes('boundary'), true);
  });
});

describe('summarize: refused', () => {
  test('boundary resume answered with refusal: flag, latency, state', () => {
    const s = sum(pendingUpgrade().resume(2_000, 5).refused(2_048));
    assert.deepEqual(s.flags, ['boundary', 'refused']);
    assert.equal(s.boundaryOutcome, 'refused');
    assert.equal(s.refusalLatencyMs, 48);
    assert.equal(s.refusedAt, isoAt(2_048));
    assert.equal(s.answeredAt, isoAt(2_048));
    assert.equal(s.naiveResumeAt, null);
    assert.equal(s.state, 'terminated');
    assert.equal(s.deadlock, null);
  });

  test('latency is measured from the boundary entry even if the client retried', () => {
    const s = sum(pendingUpgrade().resume(2_000, 5).resume(2_500, null).refused(2_530));
    assert.equal(s.refusalLatencyMs, 530);
    assert.equal(s.boundaryAt, isoAt(2_000));
  });

  test('a refusal of a non-boundary resume sets refusedAt but not the refused flag', () => {
    const s = sum(pendingUpgrade().resume(2_000, 2).refused(2_010));
    assert.deepEqual(s.flags, []);
    assert.equal(s.refusedAt, isoAt(2_010));
    assert.equal(s.refusalLatencyMs, null);
    assert.equal(s.state, 'terminated');
  });

  test('an answer that precedes the boundary resume does not answer it', () => {
    const s = sum(new Timeline().opened(0).resume(5, null).accepted(6).upgrade(10, 5).resume(20, 5));
    assert.equal(s.boundaryOutcome, 'pending');
    assert.equal(s.answeredAt, null);
  });

  test('an answer to a later non-boundary resume does not answer the boundary', () => {
    const s = sum(pendingUpgrade().resume(2_000, 5).resume(2_100, 1).accepted(2_120, 4));
    assert.equal(s.boundaryOutcome, 'pending');
    assert.equal(s.flags.includes('naive_resume'), false);
    assert.equal(s.deadlockCandidateSince, null);
  });
});

describe('summarize: naive resume and deadlock', () => {
  const naive = () => pendingUpgrade().resume(2_000, 5).accepted(2_040, 0);
  const T = at(2_040); // deadlock start

  test('naive resume: flag, outcome, timestamps; state stays upgrade_pending', () => {
    const s = sum(naive(), T + 1);
    assert.deepEqual(s.flags, ['boundary', 'naive_resume']);
    assert.equal(s.boundaryOutcome, 'naive_resume');
    assert.equal(s.naiveResumeAt, isoAt(2_040));
    assert.equal(s.answeredAt, isoAt(2_040));
    assert.equal(s.refusalLatencyMs, null);
    assert.equal(s.state, 'upgrade_pending');
  });

  test('before the threshold: no deadlock flag, but the candidate is exposed', () => {
    const s = sum(naive(), T + DEFAULT_DEADLOCK_THRESHOLD_MS - 1);
    assert.equal(s.flags.includes('deadlock'), false);
    assert.equal(s.deadlock, null);
    assert.equal(s.deadlockCandidateSince, isoAt(2_040));
  });

  test('at exactly the threshold: ongoing deadlock', () => {
    const s = sum(naive(), T + DEFAULT_DEADLOCK_THRESHOLD_MS);
    assert.ok(s.flags.includes('deadlock'));
    assert.deepEqual(s.deadlock, {
      startedAt: isoAt(2_040),
      endedAt: null,
      durationMs: DEFAULT_DEADLOCK_THRESHOLD_MS,
      ongoing: true,
    });
    assert.equal(s.deadlockCandidateSince, isoAt(2_040));
  });

  test('ongoing duration grows with the reader clock, not with events', () => {
    const s = sum(naive(), new Date(T + 123_456));
    assert.equal(s.deadlock?.durationMs, 123_456);
    assert.deepEqual(summarize(naive().events, T + 123_456), s, 'Date and epoch ms are equivalent');
  });

  test('threshold is configurable', () => {
    assert.equal(sum(naive(), T + 500, { deadlockThresholdMs: 500 }).deadlock?.ongoing, true);
    assert.equal(sum(naive(), T + 499, { deadlockThresholdMs: 500 }).deadlock, null);
    assert.equal(sum(naive(), T + 20_000, { deadlockThresholdMs: 60_000 }).deadlock, null);
  });

  for (const end of ['timeout', 'closed'] as const) {
    test(`ended by session.${end}: duration from the resume.accepted, independent of now`, () => {
      const tl = naive();
      tl[end](302_040);
      for (const now of [at(302_041), at(10_000_000), at(0)]) {
        const s = sum(tl, now);
        assert.ok(s.flags.includes('deadlock'));
        assert.deepEqual(s.deadlock, {
          startedAt: isoAt(2_040),
          endedAt: isoAt(302_040),
          durationMs: 300_000,
          ongoing: false,
        });
        assert.equal(s.deadlockCandidateSince, null);
        assert.equal(s.state, 'terminated');
      }
    });
  }

  test('a short deadlock that already ended is flagged even below the threshold', () => {
    const s = sum(naive().closed(2_100));
    assert.equal(s.deadlock?.durationMs, 60);
    assert.equal(s.deadlock?.ongoing, false);
  });

  test('ended by a later refusal (the client finally got a terminal answer)', () => {
    const s = sum(naive().resume(9_000, 5).refused(9_040));
    assert.equal(s.deadlock?.endedAt, isoAt(9_040));
    assert.equal(s.deadlock?.durationMs, 7_000);
    assert.equal(s.boundaryOutcome, 'naive_resume', 'the boundary entry was answered first by the accept');
    assert.equal(s.flags.includes('refused'), false);
    assert.equal(s.refusedAt, isoAt(9_040));
  });

  test('upgrade.completed after the naive resume → no deadlock', () => {
    const s = sum(naive().completed(2_500).closed(400_000));
    assert.equal(s.flags.includes('deadlock'), false);
    assert.ok(s.flags.includes('naive_resume'));
    assert.equal(s.deadlock, null);
    assert.equal(s.deadlockCandidateSince, null);
  });

  test('upgrade.completed after the deadlock ended does not erase it', () => {
    const s = sum(naive().timeout(300_000).completed(300_100));
    assert.ok(s.flags.includes('deadlock'));
    assert.equal(s.state, 'terminated');
  });
});

describe('summarize: dual negotiation', () => {
  test('second upgrade.accepted while the first is pending', () => {
    const s = sum(pendingUpgrade().resume(2_000, null).accepted(2_010).upgrade(2_020, 7));
    assert.ok(s.flags.includes('dual_negotiation'));
    assert.equal(s.dualNegotiationAt, isoAt(2_020));
    assert.equal(s.dualNegotiationCount, 1);
  });

  test('upgrade.rejected with 409', () => {
    const s = sum(new Timeline().opened(0).rejected(100, 409));
    assert.deepEqual(s.flags, ['dual_negotiation']);
    assert.equal(s.dualNegotiationAt, isoAt(100));
  });

  test('other rejection statuses are not dual negotiation', () => {
    const s = sum(pendingUpgrade().rejected(1_100, 400).rejected(1_200, 503));
    assert.equal(s.flags.includes('dual_negotiation'), false);
    assert.equal(s.state, 'upgrade_pending', 'a rejected handshake leaves the upgrade pending');
  });

  test('both symptoms: counted per event, first one dated', () => {
    const s = sum(pendingUpgrade().upgrade(2_000, 8).rejected(2_100, 409));
    assert.equal(s.dualNegotiationCount, 2);
    assert.equal(s.dualNegotiationAt, isoAt(2_000));
  });

  test('second upgrade after completion is not dual', () => {
    const s = sum(pendingUpgrade().completed(1_100).upgrade(5_000, 9));
    assert.equal(s.dualNegotiationCount, 0);
    assert.equal(s.dualNegotiationAt, null);
  });
});

describe('summarize: renegotiation', () => {
  const successor = { server: 'srv-2', token: 'tok-B', openedAt: '2026-11-29T12:00:02.250+02:00' };

  test('with refusal: flag, successor fields, latency from resume.refused', () => {
    const s = sum(pendingUpgrade().resume(2_000, 5).refused(2_050), NOW, { successor });
    assert.deepEqual(s.flags, ['boundary', 'refused', 'renegotiated']);
    assert.equal(s.successorToken, 'tok-B');
    assert.equal(s.successorServer, 'srv-2');
    assert.equal(s.successorOpenedAt, isoAt(2_250));
    assert.equal(s.renegotiationLatencyMs, 200);
  });

  test('without refusal: flagged, latency null', () => {
    const s = sum(new Timeline().opened(0).closed(100), NOW, { successor });
    assert.deepEqual(s.flags, ['renegotiated']);
    assert.equal(s.renegotiationLatencyMs, null);
    assert.equal(s.successorToken, 'tok-B');
  });

  test('latency uses the first resume.refused, boundary or not', () => {
    const s = sum(pendingUpgrade().resume(2_000, 1).refused(2_100), NOW, { successor });
    assert.equal(s.renegotiationLatencyMs, 150);
  });

  test('no successor (absent or null) → no flag, null fields', () => {
    for (const opts of [{}, { successor: null }]) {
      const s = sum(pendingUpgrade().resume(2_000, 5).refused(2_050), NOW, opts);
      assert.equal(s.flags.includes('renegotiated'), false);
      assert.equal(s.successorToken, null);
      assert.equal(s.successorServer, null);
      assert.equal(s.successorOpenedAt, null);
      assert.equal(s.renegotiationLatencyMs, null);
    }
  });
});

describe('summarize: burned token reuse', () => {
  test('resume accepted after refusal', () => {
    const s = sum(pendingUpgrade().resume(2_000, 5).refused(2_050).resume(3_000, 5).accepted(3_010));
    assert.ok(s.flags.includes('burned_token_reuse'));
    assert.equal(s.burnedTokenReuseAt, isoAt(3_010));
    assert.equal(s.state, 'terminated');
    assert.equal(s.boundaryOutcome, 'refused');
  });

  test('new upgrade.accepted after refusal (not counted as dual)', () => {
    const s = sum(pendingUpgrade().resume(2_000, 5).refused(2_050).upgrade(3_000, 11));
    assert.ok(s.flags.includes('burned_token_reuse'));
    assert.equal(s.burnedTokenReuseAt, isoAt(3_000));
    assert.equal(s.flags.includes('dual_negotiation'), false);
    assert.equal(s.state, 'terminated');
  });

  test('first reuse is dated', () => {
    const s = sum(pendingUpgrade().resume(2_000, 5).refused(2_050).upgrade(3_000, 11).accepted(4_000));
    assert.equal(s.burnedTokenReuseAt, isoAt(3_000));
  });

  test('accept before the refusal is not reuse; neither is a timeout-ended session', () => {
    assert.equal(sum(new Timeline().opened(0).resume(10, null).accepted(11).resume(20, 3).refused(21)).burnedTokenReuseAt, null);
    const s = sum(new Timeline().opened(0).timeout(10).resume(20, null).accepted(21));
    assert.equal(s.flags.includes('burned_token_reuse'), false);
  });
});

describe('summarize: full flows', () => {
  test('correct refusal then renegotiation', () => {
    const s = sum(pendingUpgrade('tok-old').resume(1_120, 5).refused(1_168), NOW, {
      server: 'srv-1',
      successor: { server: 'srv-1', token: 'tok-new', openedAt: isoAt(1_300) },
    });
    assert.deepEqual(s, {
      server: 'srv-1',
      token: 'tok-old',
      state: 'terminated',
      flags: ['boundary', 'refused', 'renegotiated'],
      boundaryOutcome: 'refused',
      openedAt: isoAt(0),
      lastEventAt: isoAt(1_168),
      eventCount: 5,
      refusalLatencyMs: 48,
      deadlock: null,
      previousToken: null,
      successorToken: 'tok-new',
      successorServer: 'srv-1',
      successorOpenedAt: isoAt(1_300),
      renegotiationLatencyMs: 132,
      boundaryAt: isoAt(1_120),
      answeredAt: isoAt(1_168),
      refusedAt: isoAt(1_168),
      naiveResumeAt: null,
      dualNegotiationAt: null,
      dualNegotiationCount: 0,
      burnedTokenReuseAt: null,
      dropCount: 1,
      deadlockCandidateSince: null,
    });
  });

  test('design-note variant 2: fresh stream with reused token, second upgrade, 409', () => {
    const s = sum(pendingUpgrade().resume(1_100, null).accepted(1_110).upgrade(1_120, 6).rejected(1_200, 409));
    assert.deepEqual(s.flags, ['boundary', 'deadlock', 'dual_negotiation', 'naive_resume']);
    assert.equal(s.dualNegotiationCount, 2);
    assert.equal(s.deadlock?.ongoing, true);
  });
});
