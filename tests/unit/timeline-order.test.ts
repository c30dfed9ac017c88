import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ZEvent, type DoorwatchEvent } from '@/lib/contract/event';
import { compareEvents, compareTimelineKeys, orderTimeline } from '@/lib/boundary/timeline-order';
import { timestampMs } from '@/lib/contract/timestamp';
import { canonicalJson } from '@/lib/boundary/canonical-json';

function ev(id: string, at: string, extra: Record<string, unknown> = {}): DoorwatchEvent {
  return ZEvent.parse({ id, token: 't', at, type: 'stream.dropped', ...extra });
}
const ids = (es: readonly DoorwatchEvent[]) => es.map((e) => e.id);

describe('orderTimeline', () => {
  test('orders by instant, not by string (offsets compare correctly)', () => {
    const a = ev('a', '2026-11-29T11:00:00.000+02:00'); // 09:00Z
    const b = ev('b', '2026-11-29T10:00:00.000Z');
    const c = ev('c', '2026-11-29T09:30:00.000Z');
    assert.deepEqual(ids(orderTimeline([b, c, a])), ['a', 'c', 'b']);
  });

  test('same instant: missing seq sorts before any seq, then by seq', () => {
    const at = '2026-11-29T10:00:00.000Z';
    const s2 = ev('a2', at, { seq: 2 });
    const s0 = ev('z0', at, { seq: 0 });
    const none = ev('zz', at);
    assert.deepEqual(ids(orderTimeline([s2, s0, none])), ['zz', 'z0', 'a2']);
  });

  test('same instant and seq: by id in code-unit order', () => {
    const at = '2026-11-29T10:00:00.000Z';
    const es = ['b', 'a', 'B', 'a.1', 'a-1'].map((id) => ev(id, at, { seq: 1 }));
    assert.deepEqual(ids(orderTimeline(es)), ['B', 'a', 'a-1', 'a.1', 'b']);
  });

  test('equal instants written differently tie on time', () => {
    const a = ev('b', '2026-11-29T12:00:00.000+02:00');
    const b = ev('a', '2026-11-29T10:00:00.000Z');
    assert.deepEqual(ids(orderTimeline([a, b])), ['a', 'b']);
  });

  test('dedupes by id; the surviving copy does not depend on input order', () => {
    const early = ev('x', '2026-11-29T10:00:00.000Z', { data: { reason: 'a' } });
    const late = ev('x', '2026-11-29T10:00:05.000Z', { data: { reason: 'b' } });
    const other = ev('y', '2026-11-29T10:00:01.000Z');
    for (const input of [
      [early, late, other],
      [late, other, early],
      [other, late, early, late],
    ]) {
      const out = orderTimeline(input);
      assert.deepEqual(ids(out), ['x', 'y']);
      assert.equal(out[0], early);
    }
  });

  test('same id, same time: canonical JSON decides which copy survives', () => {
    const at = '2026-11-29T10:00:00.000Z';
    const a = ev('x', at, { data: { reason: 'a' } });
    const b = ev('x', at, { data: { reason: 'b' } });
    assert.deepEqual(orderTimeline([b, a])[0].data, { reason: 'a' });
    assert.deepEqual(orderTimeline([a, b])[0].data, { reason: 'a' });
  });

  test('exact repeats count once', () => {
    const a = ev('a', '2026-11-29T10:00:00.000Z');
    assert.equal(orderTimeline([a, { ...a }, a]).length, 1);
  });

  test('does not mutate its input', () => {
    const input = [ev('b', '2026-11-29T10:00:01.000Z'), ev('a', '2026-11-29T10:00:00.000Z')];
    orderTimeline(input);
    assert.deepEqual(ids(input), ['b', 'a']);
  });

  test('compareEvents is antisymmetric and zero only for identical content', () => {
    const a = ev('a', '2026-11-29T10:00:00.000Z');
    const b = ev('b', '2026-11-29T10:00:00.000Z');
    assert.ok(compareEvents(a, b) < 0 && compareEvents(b, a) > 0);
    assert.equal(compareEvents(a, { ...a }), 0);
  });

  test('canonicalJson ignores key order', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}');
    assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
  });

  test('keys alone (the session page): at, then seq (absent first), then id; the same order as compareEvents', () => {
    const k = (atMs: number, seq: number | null, id: string) => ({ atMs, seq, id });
    const sorted = [k(2, null, 'a'), k(1, 5, 'b'), k(1, null, 'z'), k(1, 5, 'a'), k(1, 2, 'c')].sort(compareTimelineKeys);
    assert.deepEqual(
      sorted.map((x) => `${x.atMs}/${x.seq}/${x.id}`),
      ['1/null/z', '1/2/c', '1/5/a', '1/5/b', '2/null/a'],
    );
    // Distinct ids (as stored): sorting by keys gives orderTimeline's order, offsets included.
    const es = [
      ev('b', '2026-11-29T10:00:00.000Z', { seq: 3 }),
      ev('a', '2026-11-29T11:00:00.000+01:00'),
      ev('c', '2026-11-29T09:59:59.999Z'),
      ev('d', '2026-11-29T10:00:00.000Z', { seq: 1 }),
    ];
    const byKeys = es.map((e) => ({ atMs: timestampMs(e.at), seq: e.seq, id: e.id })).sort(compareTimelineKeys);
    assert.deepEqual(
      byKeys.map((x) => x.id),
      ids(orderTimeline(es)),
    );
  });
});
