// The simulator's SSE reader follows the WHATWG rules (via eventsource-parser): the four cases the
// hand-written parser got wrong, plus the round trip with what the simulated server writes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatSse, SseParser } from '@/lib/wire/sse';

/** Every way of cutting the wire in two must give the same events. */
function parseSplitEverywhere(wire: string) {
  const whole = new SseParser().push(wire);
  for (let cut = 1; cut < wire.length; cut++) {
    const p = new SseParser();
    assert.deepEqual([...p.push(wire.slice(0, cut)), ...p.push(wire.slice(cut))], whole, `cut at ${cut}`);
  }
  return whole;
}

describe('sim SSE parser', () => {
  test('format and incremental parse round-trip, split anywhere', () => {
    const events = [
      { id: 1, event: 'message', data: '{"n":1}' },
      { id: 2, event: 'upgrade-accepted', data: '{"url":"/mcp/ws?session=s&negotiation=2"}' },
      { id: null, event: 'session-superseded', data: 'line1\nline2' },
    ];
    const parsed = parseSplitEverywhere(events.map(formatSse).join(''));
    assert.deepEqual(
      parsed,
      events.map((e) => ({ ...e, id: e.id === null ? null : String(e.id) })),
    );
  });

  test('CRLF and lone CR line endings delimit events like LF', () => {
    const crlf = 'id: 7\r\nevent: message\r\ndata: a\r\n\r\nid: 8\r\ndata: b\r\ndata: c\r\n\r\n';
    assert.deepEqual(parseSplitEverywhere(crlf), [
      { id: '7', event: 'message', data: 'a' },
      { id: '8', event: 'message', data: 'b\nc' },
    ]);
    assert.deepEqual(parseSplitEverywhere('id: 9\rdata: d\r\r'), [{ id: '9', event: 'message', data: 'd' }]);
  });

  test('comments (`: ping` keep-alives) are not events', () => {
    const wire = ': ping\n\nid: 1\ndata: x\n\n: ping\n\n:\n\n';
    assert.deepEqual(parseSplitEverywhere(wire), [{ id: '1', event: 'message', data: 'x' }]);
  });

  test('ids are kept as the server wrote them, numeric or not', () => {
    const wire = 'id: _GET_stream_1700000000000_ab12\ndata: {}\n\nid: 0042\ndata: {}\n\nid: 12\ndata: {}\n\n';
    assert.deepEqual(
      parseSplitEverywhere(wire).map((e) => e.id),
      ['_GET_stream_1700000000000_ab12', '0042', '12'],
    );
  });

  test('retry: sets the reconnection delay; an invalid retry is ignored', () => {
    const p = new SseParser();
    assert.equal(p.retryMs, null);
    assert.deepEqual(p.push('retry: 1500\nid: 1\ndata: \n\n'), [{ id: '1', event: 'message', data: '' }]);
    assert.equal(p.retryMs, 1500);
    p.push('retry: soon\n\n');
    assert.equal(p.retryMs, 1500);
    p.push('retry: 250\r\n\r\n');
    assert.equal(p.retryMs, 250);
  });
});
