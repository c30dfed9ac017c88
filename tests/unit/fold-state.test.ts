// The stored fold (issue 26): carrying it on with events in timeline order gives exactly the fold
// of the whole timeline, whatever the batches; a late event is refused (the store folds again);
// stored states survive encoding; a change to the fold without a FOLD_VERSION bump fails here;
// states stored in the first encoding (every field written) still decode to the same state.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { FOLD_VERSION, decodeFoldState, encodeFoldState, extendFoldState, foldTimeline, type FoldState } from '@/lib/boundary/fold-state';
import { initialFacts } from '@/lib/boundary/session-state';
import { orderTimeline } from '@/lib/boundary/timeline-order';
import { historyArb, permute } from './support/histories';
import { Timeline } from './support/timeline';

const encoded = (s: FoldState | null) => (s === null ? null : encodeFoldState(s));

/**
 * The first encoding (until 5 Dec 2026), which rows written before then hold: every field, nulls
 * and zeros included, sets as sorted arrays, `last.seq` null when absent.
 */
function firstEncoding(state: FoldState): string {
  const f = state.facts;
  const facts = {
    ...f,
    negotiationsSeen: [...f.negotiationsSeen].sort((a, b) => a - b),
    conflictsSeen: [...f.conflictsSeen].sort(),
    rejectedStatuses: [...f.rejectedStatuses].sort((a, b) => a - b),
  };
  return JSON.stringify({ v: FOLD_VERSION, last: { atMs: state.last.atMs, seq: state.last.seq ?? null, id: state.last.id }, facts });
}

/** Splits xs into consecutive batches at the given cut points. */
function batchesOf<T>(xs: readonly T[], cuts: readonly number[]): T[][] {
  const at = [...new Set(cuts.map((c) => c % (xs.length + 1)))].sort((a, b) => a - b);
  const out: T[][] = [];
  let from = 0;
  for (const c of [...at, xs.length]) {
    if (c > from) out.push(xs.slice(from, c));
    from = Math.max(from, c);
  }
  return out;
}

/**
 * What ingest does per session (lib/ingest/session-folds.ts): the stored state (as text) is carried
 * on with a batch's new events, or the whole stored timeline is folded again when that is refused.
 */
function deliver(batches: readonly DoorwatchEvent[][]): { text: string | null; reloads: number } {
  const stored = new Map<string, DoorwatchEvent>();
  let text: string | null = null;
  let reloads = 0;
  for (const batch of batches) {
    const fresh: DoorwatchEvent[] = [];
    for (const e of batch) if (!stored.has(e.id) && !fresh.some((f) => f.id === e.id)) fresh.push(e);
    if (fresh.length === 0) continue;
    for (const e of fresh) stored.set(e.id, e);
    const state = decodeFoldState(text);
    const carried = state === null ? (text === null ? foldTimeline(fresh) : null) : extendFoldState(state, fresh);
    if (carried) text = encodeFoldState(carried);
    else {
      reloads++;
      text = encoded(foldTimeline([...stored.values()]));
    }
  }
  return { text, reloads };
}

describe('fold state', () => {
  test('any batches, in any order, with copies: the same state as folding the whole timeline', () => {
    fc.assert(
      fc.property(
        historyArb,
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 30 }),
        (h, cuts, swaps) => {
          fc.pre(h.events.length > 0);
          const whole = encoded(foldTimeline(h.events));
          // In timeline order, split anywhere: carried on every time, never folded again.
          const inOrder = deliver(batchesOf(orderTimeline(h.events), cuts));
          assert.equal(inOrder.text, whole);
          assert.equal(inOrder.reloads, 0);
          // Shuffled and resent: late events are folded again, and the result is the same.
          const copies = [...h.events, ...h.events.filter((_, i) => i % 3 === 0)];
          assert.equal(deliver(batchesOf(permute(copies, swaps), cuts)).text, whole);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('an event at or before the last one folded is refused, and the state is left as it was', () => {
    const events = new Timeline('tok-A').opened(0).upgrade(10, 3).dropped(20).events;
    const state = foldTimeline(events.slice(1))!;
    const before = encodeFoldState(state);
    assert.equal(extendFoldState(state, [events[0]]), null, 'an earlier event');
    assert.equal(extendFoldState(state, [events[2]]), null, 'the last event again');
    assert.equal(encodeFoldState(state), before);
    assert.equal(encodeFoldState(extendFoldState(state, [])!), before, 'no events: the same state');
  });

  test('sets survive encoding; another version or broken text is no state', () => {
    const events = new Timeline('tok-A').opened(0).upgrade(10, 3).upgrade(20, 5).rejected(30, 409).events;
    const state = foldTimeline(events)!;
    const back = decodeFoldState(encodeFoldState(state))!;
    assert.deepEqual(back.facts, state.facts);
    assert.ok(back.facts.negotiationsSeen instanceof Set && back.facts.negotiationsSeen.size === 2);
    const other = JSON.parse(encodeFoldState(state)) as { v: number };
    other.v = FOLD_VERSION + 1;
    assert.equal(decodeFoldState(JSON.stringify(other)), null);
    assert.equal(decodeFoldState('{"v":1'), null);
    assert.equal(decodeFoldState(null), null);
  });

  test('states stored in the first encoding decode to the same state, and are written back in the new one', () => {
    fc.assert(
      fc.property(historyArb, (h) => {
        fc.pre(h.events.length > 0);
        const state = foldTimeline(h.events)!;
        const fromOld = decodeFoldState(firstEncoding(state));
        const fromNew = decodeFoldState(encodeFoldState(state));
        assert.ok(fromOld && fromNew);
        assert.deepEqual(fromNew, fromOld);
        assert.deepEqual(fromNew.facts, state.facts);
        assert.equal(encodeFoldState(fromOld), encodeFoldState(state));
        // Carried on from either text, the same state.
        const later = orderTimeline(h.events).at(-1)!;
        const next = { ...later, id: `${later.id}.next`, at: new Date(Date.parse(later.at) + 1).toISOString() } as DoorwatchEvent;
        assert.equal(encoded(extendFoldState(fromOld, [next])), encoded(extendFoldState(fromNew, [next])));
      }),
      { numRuns: 300 },
    );
  });

  test('a row written in the first encoding (text as stored) is still carried on', () => {
    // encodeFoldState's output before 5 Dec 2026 for `opened(0).upgrade(10, 3).rejected(30, 409)` of tok-A.
    const stored =
      '{"v":1,"last":{"atMs":1795946400030,"seq":null,"id":"tok-A.e003"},"facts":{"token":"tok-A","state":"upgrade_pending","pendingUpgrade":{"eventId":3,"at":1795946400010},"eventCount":3,"openedAt":1795946400000,"previousToken":null,"lastEventAt":1795946400030,"lastRequest":null,"boundary":null,"answer":null,"refusedAt":null,"dualNegotiationAt":1795946400030,"dualNegotiationCount":1,"negotiationsSeen":[3],"conflictsSeen":["e:tok-A.e003"],"burnedTokenReuseAt":null,"dropCount":0,"deadlockStart":null,"deadlockEnd":null,"checkedResumeCount":0,"lossyResumeCount":0,"idleResumeCount":0,"rejectedResumeCount":0,"rejectedStatuses":[],"abandonedAt":null}}';
    const events = new Timeline('tok-A').opened(0).upgrade(10, 3).rejected(30, 409).dropped(40).events;
    const state = decodeFoldState(stored);
    assert.ok(state);
    assert.equal(encodeFoldState(state), encodeFoldState(foldTimeline(events.slice(0, 3))!));
    assert.equal(encoded(extendFoldState(state, events.slice(3))), encoded(foldTimeline(events)));
  });

  test('fields at their starting value are left out of the text', () => {
    const state = foldTimeline(new Timeline('tok-A').opened(0).dropped(20).events)!;
    const text = encodeFoldState(state);
    assert.doesNotMatch(text, /null|\[\]/);
    const facts = (JSON.parse(text) as { facts: Record<string, unknown> }).facts;
    assert.deepEqual(Object.keys(facts), ['token', 'eventCount', 'openedAt', 'lastEventAt', 'dropCount']);
    // An instant that is the default of another field (0 is the epoch, not "none") is kept.
    const epoch = { ...state, facts: { ...initialFacts(), token: 'tok-A', eventCount: 1, openedAt: 0, lastEventAt: 0 } };
    assert.deepEqual(decodeFoldState(encodeFoldState(epoch))!.facts, epoch.facts);
  });

  test('the fold over a fixed corpus is pinned to FOLD_VERSION', () => {
    // Stored states are carried on by the rules that are running. If this fails, the fold changed:
    // bump FOLD_VERSION in lib/boundary/fold-state.ts (states of the old version are then folded
    // again from their timelines) and pin the new digest here. (A change to the corpus itself,
    // tests/unit/support/histories.ts, moves the digest too: then re-pin without a bump.) The digest
    // is of the first encoding, whatever the column holds now: it pins the fold, not the text.
    const corpus = fc.sample(historyArb, { seed: 26, numRuns: 300 });
    const digest = createHash('sha256');
    for (const h of corpus) {
      const state = foldTimeline(h.events);
      digest.update(`${state === null ? null : firstEncoding(state)}\n`);
    }
    assert.deepEqual({ version: FOLD_VERSION, digest: digest.digest('hex').slice(0, 16) }, { version: 1, digest: 'ff5376fb3256d059' });
  });
});
