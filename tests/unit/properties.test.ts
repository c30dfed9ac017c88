import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { summarize } from '@/lib/boundary/summarize';
import { decideResume } from '@/lib/boundary/decide-resume';
import { orderTimeline } from '@/lib/boundary/timeline-order';
import { ZEvent, type DoorwatchEvent } from '@/lib/contract/event';
import { ZSessionSummary } from '@/lib/contract/summary';
import { historyArb, permute, type History } from './support/histories';

const NUM_RUNS = 400;
const swapsArb = fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 60 });
const dupsArb = fc.array(fc.nat(), { maxLength: 12 });
/** Reader clock relative to the last event: before, at and around the deadlock threshold, and far later. */
const nowOffsetArb = fc.constantFrom(0, 1, 9_999, 10_000, 10_001, 60_000, 3_600_000);

const successorArb = fc.option(
  fc.record({
    server: fc.constantFrom('srv-1', 'srv-2'),
    token: fc.constant('tok-next'),
    openedAt: fc.integer({ min: -5_000, max: 400_000 }).map((d) => new Date(Date.parse('2026-11-29T10:00:00.000Z') + d).toISOString()),
  }),
  { nil: null },
);

function withDuplicates(events: readonly DoorwatchEvent[], dups: readonly number[]): DoorwatchEvent[] {
  if (events.length === 0) return [];
  // Copies are structurally equal but distinct objects, like a retried POST.
  return [...events, ...dups.map((i) => structuredClone(events[i % events.length]))];
}

describe('properties: summaries are order- and repeat-independent', () => {
  test('any permutation and duplication gives the deepEqual summary', () => {
    fc.assert(
      fc.property(historyArb, swapsArb, dupsArb, nowOffsetArb, successorArb, (h, swaps, dups, nowOff, successor) => {
        fc.pre(h.events.length > 0);
        const now = h.lastAtMs + nowOff;
        const opts = { server: 'srv-1', successor };
        const expected = summarize(h.events, now, opts);
        const shuffled = permute(withDuplicates(h.events, dups), swaps);
        assert.deepEqual(summarize(shuffled, now, opts), expected);
        assert.equal(expected.eventCount, h.events.length);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test('conflicting copies of an id resolve the same way whatever the arrival order', () => {
    fc.assert(
      fc.property(historyArb, dupsArb, swapsArb, fc.integer({ min: -2_000, max: 2_000 }), (h, dups, swaps, shift) => {
        fc.pre(h.events.length > 0);
        // Retries that differ (clock re-read on retry): same id, shifted `at`.
        const conflicting = dups.map((i) => {
          const e = h.events[i % h.events.length];
          return ZEvent.parse({ ...e, at: new Date(Date.parse(e.at) + shift).toISOString() });
        });
        const all = [...h.events, ...conflicting];
        const now = h.lastAtMs + 20_000;
        assert.deepEqual(summarize(permute(all, swaps), now), summarize(all, now));
        assert.deepEqual(orderTimeline(permute(all, swaps)), orderTimeline(all));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test('every summary satisfies the schema and its internal invariants', () => {
    fc.assert(
      fc.property(historyArb, nowOffsetArb, successorArb, (h, nowOff, successor) => {
        fc.pre(h.events.length > 0);
        const s = summarize(h.events, h.lastAtMs + nowOff, { successor });
        ZSessionSummary.parse(s);
        assert.deepEqual(s.flags, [...new Set(s.flags)].sort());
        const has = (f: string) => s.flags.includes(f as never);
        assert.equal(has('boundary'), s.boundaryAt !== null);
        assert.equal(has('boundary'), s.boundaryOutcome !== null);
        assert.equal(has('refused'), s.boundaryOutcome === 'refused');
        assert.equal(has('naive_resume'), s.boundaryOutcome === 'naive_resume');
        assert.equal(has('refused'), s.refusalLatencyMs !== null);
        if (s.refusalLatencyMs !== null) assert.ok(s.refusalLatencyMs >= 0);
        assert.equal(has('naive_resume'), s.naiveResumeAt !== null);
        assert.equal(s.answeredAt !== null, s.boundaryOutcome === 'refused' || s.boundaryOutcome === 'naive_resume');
        assert.equal(has('dual_negotiation'), s.dualNegotiationCount > 0);
        assert.equal(has('dual_negotiation'), s.dualNegotiationAt !== null);
        assert.equal(has('burned_token_reuse'), s.burnedTokenReuseAt !== null);
        if (has('burned_token_reuse')) assert.ok(s.refusedAt !== null && s.burnedTokenReuseAt! >= s.refusedAt);
        if (has('refused')) assert.equal(s.state, 'terminated');
        assert.equal(has('deadlock'), s.deadlock !== null);
        if (s.deadlock) {
          assert.ok(has('naive_resume'));
          assert.equal(s.deadlock.startedAt, s.naiveResumeAt);
          assert.equal(s.deadlock.ongoing, s.deadlock.endedAt === null);
          assert.ok(s.deadlock.durationMs >= 0);
        }
        if (s.deadlockCandidateSince !== null) {
          assert.ok(has('naive_resume'));
          assert.equal(s.state, 'upgrade_pending', 'an unended deadlock means the handshake is still pending');
        }
        assert.equal(has('renegotiated'), successor !== null);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

function aimCursor(h: History, pick: number): number | null {
  const ref = h.lastUpgradeEventId ?? h.lastSseEventId;
  return [null, Math.max(0, ref - 1), ref, ref + 1, pick][pick % 5] ?? null;
}

function appendResume(h: History, lastEventId: number | null): DoorwatchEvent[] {
  const probe = ZEvent.parse({
    id: 'zz.probe',
    token: h.events[0].token,
    type: 'resume.requested',
    at: new Date(h.lastAtMs + 1).toISOString(),
    data: { lastEventId },
  });
  return [...h.events, probe];
}

describe('properties: decideResume agrees with summarize', () => {
  test('refuse ⇔ the same resume appended would be the boundary entry', () => {
    let refusals = 0;
    fc.assert(
      fc.property(historyArb, fc.nat(20), (h, pick) => {
        fc.pre(h.events.length > 0);
        const before = summarize(h.events, h.lastAtMs);
        fc.pre(before.boundaryAt === null); // otherwise the probe could not be "the" entry
        const lastEventId = aimCursor(h, pick);
        const decision = decideResume(h.events, { lastEventId });
        const after = summarize(appendResume(h, lastEventId), h.lastAtMs + 1);
        const entered = after.flags.includes('boundary') && after.boundaryAt === new Date(h.lastAtMs + 1).toISOString();
        assert.equal(decision.action === 'refuse', entered);
        if (decision.action === 'refuse') refusals += 1;
      }),
      { numRuns: NUM_RUNS },
    );
    assert.ok(refusals > 10, `generator should reach the boundary often enough (got ${refusals})`);
  });

  test('decision matches the summarized state for every history', () => {
    fc.assert(
      fc.property(historyArb, fc.nat(20), swapsArb, (h, pick, swaps) => {
        fc.pre(h.events.length > 0);
        const s = summarize(h.events, h.lastAtMs);
        const lastEventId = aimCursor(h, pick);
        const d = decideResume(permute(h.events, swaps), { lastEventId });
        switch (s.state) {
          case 'terminated':
          case 'websocket_bound':
            assert.deepEqual(d, { action: 'not_applicable', reason: s.state });
            break;
          case 'sse_active':
            assert.deepEqual(d, { action: 'resume', fromEventId: lastEventId });
            break;
          case 'upgrade_pending':
            if (lastEventId === null) assert.equal(d.action, 'refuse');
            else if (d.action === 'resume') assert.equal(d.fromEventId, lastEventId);
            else {
              assert.equal(d.action, 'refuse');
              if (d.action === 'refuse') assert.ok(lastEventId >= d.upgradeEventId);
            }
            break;
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test('a server that always follows decideResume never deadlocks, dual-negotiates via resume, or reuses a burned token', () => {
    // Replay each generated history, but let decideResume answer every resume.
    fc.assert(
      fc.property(historyArb, (h) => {
        fc.pre(h.events.length > 0);
        const corrected: DoorwatchEvent[] = [];
        for (const e of orderTimeline(h.events)) {
          if (e.type === 'resume.refused' || e.type === 'resume.accepted') continue; // replaced below
          if (e.type === 'resume.requested') {
            const d = decideResume(corrected, { lastEventId: e.data.lastEventId });
            corrected.push(e);
            if (d.action === 'not_applicable') continue;
            const type = d.action === 'refuse' ? 'resume.refused' : 'resume.accepted';
            corrected.push(
              ZEvent.parse({ id: `${e.id}.answer`, token: e.token, type, at: e.at, seq: (e.seq ?? 0) + 1, data: { replayed: 0 } }),
            );
            continue;
          }
          if (corrected.some((c) => c.type === 'resume.refused') && e.type === 'upgrade.accepted') continue; // burned
          corrected.push(e);
        }
        const s = summarize(corrected, h.lastAtMs + 3_600_000);
        assert.equal(s.flags.includes('naive_resume'), false);
        assert.equal(s.flags.includes('deadlock'), false);
        assert.equal(s.flags.includes('burned_token_reuse'), false);
        if (s.flags.includes('boundary')) assert.equal(s.boundaryOutcome, 'refused');
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
