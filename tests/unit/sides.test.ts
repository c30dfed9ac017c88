// Which side of the door client and server were on after each event (lib/boundary/sides.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { deriveSides, naiveShape, type SideStep } from '@/lib/boundary/sides';
import { deriveSessionFacts } from '@/lib/boundary/session-state';
import { timelineSides } from '@/lib/ui/sides';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { Timeline, pendingUpgrade } from './support/timeline';
import { historyArb, permute } from './support/histories';

/** `client/server` after each event, with `*` for the door, `2` for a dual negotiation. */
function lanes(steps: readonly SideStep[]): string[] {
  return steps.map((s) => `${s.client}/${s.server}${s.door ? ' *' : ''}${s.dual ? ' 2' : ''}`);
}

function sidesOf(tl: Timeline): SideStep[] {
  const steps = deriveSides(tl.events);
  assert.deepEqual(
    steps.map((s) => s.eventId),
    tl.events.map((e) => e.id),
    'one step per event, in timeline order',
  );
  for (const s of steps) assert.equal(s.disagree, s.client !== s.server);
  return steps;
}

describe('sides of the door', () => {
  test('a naive answer to a cursor at the door: the client waits on the WebSocket side (the text says so)', () => {
    const steps = sidesOf(pendingUpgrade().resume(1_100, 5).accepted(1_110));
    assert.deepEqual(
      steps.map((s) => s.naiveAnswer),
      [false, false, false, false, true],
    );
    assert.equal(steps[4].client, 'ws');
    assert.equal(naiveShape(steps), 'client_awaits_handshake');
  });

  test('a naive answer to the same token without Last-Event-ID: both lanes SSE, the server holds the upgrade (the text says so)', () => {
    const tl = pendingUpgrade().resume(1_100, null).accepted(1_110);
    const steps = sidesOf(tl);
    assert.equal(deriveSessionFacts(tl.events).answer?.outcome, 'naive_resume', 'condition 3, second clause: inside the boundary');
    assert.deepEqual(lanes(steps).slice(-2), ['sse/ws', 'sse/sse']);
    assert.equal(naiveShape(steps), 'server_holds_upgrade');
    assert.notEqual(deriveSessionFacts(tl.events).deadlockStart, null, 'still counted as stuck while the upgrade is pending');
  });

  test('the fold marks one boundary entry and one answer: ordinary resumes before the door (same instant too) are not the naive answer', () => {
    // Two ordinary resumes before the door (the second accepted in the door's millisecond), then the
    // boundary resume answered naively, then one more accept (not an answer: the boundary was answered).
    const tl = new Timeline()
      .opened(0)
      .dropped(100)
      .resume(150, 1)
      .accepted(160)
      .dropped(400)
      .resume(450, 2)
      .accepted(1_110)
      .upgrade(1_110, 5)
      .dropped(1_120)
      .resume(1_130, 5)
      .accepted(1_140)
      .accepted(1_150);
    const steps = sidesOf(tl);
    const at = (flag: 'naiveAnswer' | 'boundaryEntry' | 'refusedAnswer') => steps.flatMap((s, i) => (s[flag] ? [i] : []));
    assert.deepEqual(at('naiveAnswer'), [10]);
    assert.deepEqual(at('boundaryEntry'), [9]);
    assert.deepEqual(at('refusedAnswer'), []);
    const refused = sidesOf(pendingUpgrade().resume(1_100, 5).refused(1_148));
    assert.deepEqual(
      refused.map((s) => [s.boundaryEntry, s.refusedAnswer, s.naiveAnswer]),
      [
        [false, false, false],
        [false, false, false],
        [false, false, false],
        [true, false, false],
        [false, true, false],
      ],
    );
  });

  test('no naive answer: a refusal, or an ordinary resume before the door, has no naive shape', () => {
    assert.equal(naiveShape(sidesOf(pendingUpgrade().resume(1_100, 5).refused(1_148))), null);
    assert.equal(naiveShape(sidesOf(pendingUpgrade().resume(1_100, 1).accepted(1_110))), null);
  });

  test('refused: past the door with the server, then both burned', () => {
    const steps = sidesOf(pendingUpgrade().resume(1_100, 5).refused(1_148));
    assert.deepEqual(lanes(steps), ['sse/sse', 'ws/ws *', 'ws/ws', 'ws/ws', 'burned/burned']);
    assert.ok(steps.every((s) => !s.disagree));
  });

  test('naive resume: the server goes back to SSE, the client waits on the WebSocket side until the timeout', () => {
    const steps = sidesOf(pendingUpgrade().resume(1_100, 5).accepted(1_110).timeout(301_110));
    assert.deepEqual(lanes(steps), ['sse/sse', 'ws/ws *', 'ws/ws', 'ws/ws', 'ws/sse', 'closed/closed']);
    assert.deepEqual(
      steps.map((s) => s.disagree),
      [false, false, false, false, true, false],
    );
    // A cursor before the door is not a boundary resume: the client is back on SSE with the server.
    assert.deepEqual(lanes(sidesOf(pendingUpgrade().resume(1_100, 4).accepted(1_110))).slice(3), ['sse/ws', 'sse/sse']);
  });

  test('dual negotiation: a fresh reconnect, a second upgrade.accepted, 409 — the client falls back to SSE while the server believes WebSocket', () => {
    const tl = new Timeline()
      .opened(0)
      .upgrade(1_000, 4)
      .dropped(1_040)
      .resume(1_090, null)
      .upgrade(1_100, 5)
      .rejected(1_180, 409)
      .closed(4_000);
    const steps = sidesOf(tl);
    assert.deepEqual(lanes(steps), ['sse/sse', 'ws/ws *', 'ws/ws', 'sse/ws', 'ws/ws * 2', 'sse/ws', 'closed/closed']);
    assert.equal(steps.filter((s) => s.dual).length, 1);
    // A fresh negotiation after a completed one is not dual (the fold's definition).
    const again = sidesOf(new Timeline().opened(0).upgrade(1_000, 4).completed(1_050).upgrade(2_000, 9));
    assert.deepEqual(lanes(again), ['sse/sse', 'ws/ws *', 'ws/ws', 'ws/ws *']);
  });

  test('completed upgrade: both on the WebSocket side; a resume without a cursor later is plain SSE again', () => {
    const steps = sidesOf(
      new Timeline().opened(0).upgrade(1_000, 5).completed(1_040).dropped(9_000).resume(9_050, null).accepted(9_060).closed(20_000),
    );
    assert.deepEqual(lanes(steps), ['sse/sse', 'ws/ws *', 'ws/ws', 'ws/ws', 'sse/ws', 'sse/sse', 'closed/closed']);
  });

  test('burned-token reuse: after the refusal the server answers on the burned token again', () => {
    const tl = pendingUpgrade().resume(1_100, 5).refused(1_148).upgrade(1_300, 9).resume(1_400, null).accepted(1_410);
    const steps = sidesOf(tl);
    const facts = deriveSessionFacts(tl.events);
    assert.equal(facts.burnedTokenReuseAt !== null, true);
    assert.equal(facts.state, 'terminated');
    // The reused token's upgrade.accepted is a door again but not a dual negotiation (nothing is
    // pending on a terminated token); a cursor-less resume moves nobody until the server hands
    // back a stream on the burned token.
    assert.deepEqual(lanes(steps), ['sse/sse', 'ws/ws *', 'ws/ws', 'ws/ws', 'burned/burned', 'ws/ws *', 'ws/ws', 'sse/sse']);
    // A request on the burned token moves nobody; only the server's answer does.
    const asked = sidesOf(pendingUpgrade().resume(1_100, 5).refused(1_148).resume(1_200, 5).accepted(1_210));
    assert.deepEqual(lanes(asked).slice(-2), ['burned/burned', 'sse/sse']);
    // Ended without reuse, burned stays burned through a close.
    assert.deepEqual(lanes(sidesOf(pendingUpgrade().resume(1_100, 5).refused(1_148).closed(2_000))).slice(-1), ['burned/burned']);
  });

  test('the display adapter is index-aligned with the detail timeline and agrees with the domain rule', () => {
    const tl = pendingUpgrade().resume(1_100, 5).accepted(1_110).timeout(301_110);
    const detail = tl.events.map((e) => ({ id: e.id, type: e.type, at: e.at, seq: e.seq ?? null, data: e.data, receivedAt: e.at }));
    assert.deepEqual(timelineSides(detail), deriveSides(tl.events));
    // An event that no longer parses (cannot move the fold) keeps the previous sides.
    const odd = [...detail.slice(0, 2), { ...detail[2], id: 'odd', type: 'stream.mystery' }, ...detail.slice(3)];
    const steps = timelineSides(odd);
    assert.equal(steps.length, odd.length);
    assert.deepEqual({ ...steps[2] }, { ...steps[1], eventId: 'odd', door: false, dual: false });
  });
});

describe('properties: sides are delivery-order independent', () => {
  const swapsArb = fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 60 });
  const dupsArb = fc.array(fc.nat(), { maxLength: 8 });

  test('any delivery order (and repeats) of the same events gives the same sides', () => {
    fc.assert(
      fc.property(historyArb, swapsArb, dupsArb, (h, swaps, dups) => {
        const expected = deriveSides(h.events);
        assert.equal(expected.length, new Set(h.events.map((e) => e.id)).size);
        const copies: DoorwatchEvent[] = h.events.length ? dups.map((i) => structuredClone(h.events[i % h.events.length])) : [];
        assert.deepEqual(deriveSides(permute([...h.events, ...copies], swaps)), expected);
        // The dual steps are the fold's second negotiations on upgrade.accepted (409s count there too).
        const facts = deriveSessionFacts(h.events);
        const rejected409 = h.events.filter((e) => e.type === 'upgrade.rejected' && e.data.status === 409).length;
        assert.equal(expected.filter((s) => s.dual).length, facts.dualNegotiationCount - rejected409);
      }),
      { numRuns: 400 },
    );
  });
});
