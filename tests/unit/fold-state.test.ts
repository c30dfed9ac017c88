// The stored fold (issue 26): carrying it on with events in timeline order gives exactly the fold
// of the whole timeline, whatever the batches; a late event is refused (the store folds again);
// stored states survive encoding; a change to the fold without a FOLD_VERSION bump fails here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { FOLD_VERSION, decodeFoldState, encodeFoldState, extendFoldState, foldTimeline, type FoldState } from '@/lib/boundary/fold-state';
import { orderTimeline } from '@/lib/boundary/timeline-order';
import { historyArb, permute } from './support/histories';
import { Timeline } from './support/timeline';

const encoded = (s: FoldState | null) => (s === null ? null : encodeFoldState(s));

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

  test('the fold over a fixed corpus is pinned to FOLD_VERSION', () => {
    // Stored states are carried on by the rules that are running. If this fails, the fold changed:
    // bump FOLD_VERSION in lib/boundary/fold-state.ts (states of the old version are then folded
    // again from their timelines) and pin the new digest here. (A change to the corpus itself,
    // tests/unit/support/histories.ts, moves the digest too: then re-pin without a bump.)
    const corpus = fc.sample(historyArb, { seed: 26, numRuns: 300 });
    const digest = createHash('sha256');
    for (const h of corpus) digest.update(`${encoded(foldTimeline(h.events))}\n`);
    assert.deepEqual({ version: FOLD_VERSION, digest: digest.digest('hex').slice(0, 16) }, { version: 1, digest: 'ff5376fb3256d059' });
  });
});
