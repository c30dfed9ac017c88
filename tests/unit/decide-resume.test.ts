import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decideResume } from '@/lib/boundary/decide-resume';
import { Timeline, pendingUpgrade } from './support/timeline';

describe('decideResume', () => {
  test('empty timeline (unknown token): resume from the cursor', () => {
    assert.deepEqual(decideResume([], { lastEventId: 3 }), { action: 'resume', fromEventId: 3 });
    assert.deepEqual(decideResume([], { lastEventId: null }), { action: 'resume', fromEventId: null });
  });

  test('plain SSE session: resume', () => {
    const tl = new Timeline().opened(0).dropped(10);
    assert.deepEqual(decideResume(tl.events, { lastEventId: 42 }), { action: 'resume', fromEventId: 42 });
  });

  test('upgrade pending: refuse at/after the upgrade event or without a cursor', () => {
    const { events } = pendingUpgrade(); // upgrade-accepted has event id 5
    const refuse = { action: 'refuse', reason: 'upgrade_boundary', upgradeEventId: 5 };
    assert.deepEqual(decideResume(events, { lastEventId: 5 }), refuse);
    assert.deepEqual(decideResume(events, { lastEventId: 6 }), refuse);
    assert.deepEqual(decideResume(events, { lastEventId: null }), refuse);
  });

  test('upgrade pending, cursor before the upgrade event: ordinary resume (the client has not seen it)', () => {
    assert.deepEqual(decideResume(pendingUpgrade().events, { lastEventId: 4 }), { action: 'resume', fromEventId: 4 });
  });

  test('still refuses after an earlier naive accept (the upgrade is still pending)', () => {
    const tl = pendingUpgrade().resume(2_000, 5).accepted(2_010);
    assert.equal(decideResume(tl.events, { lastEventId: 5 }).action, 'refuse');
  });

  test('two negotiations pending: the original upgrade event bounds the refusal', () => {
    const tl = new Timeline().opened(0).upgrade(10, 5).upgrade(20, 9);
    assert.deepEqual(decideResume(tl.events, { lastEventId: 6 }), {
      action: 'refuse',
      reason: 'upgrade_boundary',
      upgradeEventId: 5,
    });
  });

  test('websocket-bound: not applicable', () => {
    const tl = pendingUpgrade().completed(1_100);
    for (const lastEventId of [null, 0, 5, 99]) {
      assert.deepEqual(decideResume(tl.events, { lastEventId }), { action: 'not_applicable', reason: 'websocket_bound' });
    }
  });

  for (const end of ['refused', 'timeout', 'closed'] as const) {
    test(`terminated by ${end}: not applicable (token burned / session over)`, () => {
      const tl = pendingUpgrade();
      tl[end](2_000);
      assert.deepEqual(decideResume(tl.events, { lastEventId: 5 }), { action: 'not_applicable', reason: 'terminated' });
    });
  }

  test('input order and repeats do not matter', () => {
    const tl = pendingUpgrade();
    const shuffled = [tl.events[2], tl.events[0], tl.events[1], tl.events[0]];
    assert.deepEqual(decideResume(shuffled, { lastEventId: 5 }), decideResume(tl.events, { lastEventId: 5 }));
  });
});
