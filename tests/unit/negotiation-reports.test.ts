// One negotiation reported twice (the probed server's own reporter and a door probe's client-side
// view, each at the moment it saw it) is one negotiation: the fold recognises repeats by the
// upgrade event's id (and a 409 by the negotiation it names), so the summary is the one a single
// reporter gives, in any delivery order (issue 23: false dual negotiations on probe sessions).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { summarize } from '@/lib/boundary/summarize';
import { orderTimeline } from '@/lib/boundary/timeline-order';
import { timestampMs } from '@/lib/contract/timestamp';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { historyArb, permute } from './support/histories';

/** 409s name the negotiation they refuse (the latest upgrade event before them), as the sim and the probe do. */
function naming409s(events: readonly DoorwatchEvent[]): DoorwatchEvent[] {
  let latest: number | string | null = null;
  return orderTimeline(events).map((e) => {
    if (e.type === 'upgrade.accepted') latest = e.data.eventId;
    // A 409 before any negotiation names none the fold knows; it still names one (`0`) so both reports agree.
    if (e.type === 'upgrade.rejected' && e.data.status === 409) return { ...e, data: { ...e.data, eventId: latest ?? 0 } };
    return e;
  });
}

/** A second reporter's copies of every negotiation event, seen `share` of the way to the next event. */
function secondReports(ordered: readonly DoorwatchEvent[], shares: readonly number[]): DoorwatchEvent[] {
  const out: DoorwatchEvent[] = [];
  ordered.forEach((e, i) => {
    if (e.type !== 'upgrade.accepted' && e.type !== 'upgrade.rejected') return;
    const at = timestampMs(e.at);
    const next = i + 1 < ordered.length ? timestampMs(ordered[i + 1].at) : at;
    const late = Math.floor((next - at) * (shares[i % Math.max(1, shares.length)] ?? 0));
    out.push({ ...e, id: `${e.id}.again`, at: new Date(at + late).toISOString() } as DoorwatchEvent);
  });
  return out;
}

const withoutCount = ({ eventCount: _eventCount, ...rest }: ReturnType<typeof summarize>) => rest;

describe('negotiations reported by two sides count once', () => {
  test('property: copies of every negotiation event, seen later, in any delivery order, give the same summary', () => {
    fc.assert(
      fc.property(
        historyArb,
        fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 40 }),
        (h, shares, swaps) => {
          fc.pre(h.events.length > 0);
          const events = naming409s(h.events);
          const now = h.lastAtMs + 60_000;
          const single = summarize(events, now, { server: 'srv-1' });
          const both = permute([...events, ...secondReports(events, shares)], swaps);
          const merged = summarize(both, now, { server: 'srv-1' });
          assert.deepEqual(withoutCount(merged), withoutCount(single));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('the same door reported by the server and the probe is not a second negotiation', () => {
    const at = (ms: number) => new Date(Date.parse('2026-12-03T10:00:00.000Z') + ms).toISOString();
    const server: DoorwatchEvent[] = [
      { id: 's.0', token: 't', type: 'session.opened', at: at(0), seq: 0, data: {} },
      { id: 's.1', token: 't', type: 'upgrade.accepted', at: at(30), seq: 1, data: { eventId: 4 } },
      { id: 's.2', token: 't', type: 'resume.requested', at: at(90), seq: 2, data: { lastEventId: 4 } },
      { id: 's.3', token: 't', type: 'resume.refused', at: at(91), seq: 3, data: { reason: 'session-superseded' } },
    ] as DoorwatchEvent[];
    const probe: DoorwatchEvent[] = [
      { id: 'p.0', token: 't', type: 'session.opened', at: at(1), seq: 0, data: {} },
      { id: 'p.1', token: 't', type: 'upgrade.accepted', at: at(31), seq: 1, data: { eventId: 4 } },
      { id: 'p.2', token: 't', type: 'stream.dropped', at: at(81), seq: 2, data: {} },
      { id: 'p.3', token: 't', type: 'resume.requested', at: at(89), seq: 3, data: { lastEventId: 4 } },
      { id: 'p.4', token: 't', type: 'resume.refused', at: at(92), seq: 4, data: { reason: 'session-superseded' } },
    ] as DoorwatchEvent[];
    const s = summarize([...server, ...probe], Date.parse(at(100)));
    assert.equal(s.dualNegotiationCount, 0);
    assert.ok(!s.flags.includes('dual_negotiation'));
    assert.equal(s.burnedTokenReuseAt, null);
    assert.equal(s.boundaryOutcome, 'refused');
  });

  test('409s naming one negotiation count once; 409s naming none count each', () => {
    const at = (ms: number) => new Date(Date.parse('2026-12-03T10:00:00.000Z') + ms).toISOString();
    const base: DoorwatchEvent[] = [
      { id: 'a', token: 't', type: 'session.opened', at: at(0), data: {} },
      { id: 'b', token: 't', type: 'upgrade.accepted', at: at(10), data: { eventId: 1 } },
    ] as DoorwatchEvent[];
    const rejected = (id: string, ms: number, data: Record<string, unknown>) =>
      ({ id, token: 't', type: 'upgrade.rejected', at: at(ms), data: { status: 409, ...data } }) as DoorwatchEvent;
    assert.equal(
      summarize([...base, rejected('c', 20, { eventId: 2 }), rejected('d', 21, { eventId: 2 })], Date.parse(at(30))).dualNegotiationCount,
      1,
    );
    assert.equal(summarize([...base, rejected('c', 20, {}), rejected('d', 21, {})], Date.parse(at(30))).dualNegotiationCount, 2);
  });
});
