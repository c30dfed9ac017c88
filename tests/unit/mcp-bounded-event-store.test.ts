// The /mcp event store's bounds (lib/mcp/bounded-event-store.ts): per-stream and per-session caps
// hold, replay after a held cursor gives exactly what followed on that stream only, and a cursor
// whose successors were dropped is unknown (so the SDK answers 400) rather than replayed with a gap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedEventStore } from '@/lib/mcp/bounded-event-store';

const msg = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progress: n, progressToken: 1 },
});

async function replay(store: BoundedEventStore, cursor: string) {
  const sent: { id: string; n: unknown }[] = [];
  const stream = await store.replayEventsAfter(cursor, {
    send: async (id, m) => {
      sent.push({ id, n: (m as unknown as { params: { progress: number } }).params.progress });
    },
  });
  return { stream, sent };
}

test('replays what followed the cursor on its own stream only', async () => {
  const store = new BoundedEventStore({ eventsPerStream: 10, streams: 4 });
  const a1 = await store.storeEvent('a', msg(1));
  await store.storeEvent('b', msg(100));
  const a2 = await store.storeEvent('a', msg(2));
  await store.storeEvent('a', msg(3));
  assert.equal(await store.getStreamIdForEventId(a1), 'a');
  const r = await replay(store, a1);
  assert.equal(r.stream, 'a');
  assert.deepEqual(
    r.sent.map((s) => s.n),
    [2, 3],
  );
  assert.equal(r.sent[0].id, a2, 'replayed events keep their ids');
});

test('each stream keeps its newest events; a cursor whose successors were dropped is unknown', async () => {
  const store = new BoundedEventStore({ eventsPerStream: 3, streams: 4 });
  const ids: string[] = [];
  for (let i = 1; i <= 6; i++) ids.push(await store.storeEvent('a', msg(i)));
  assert.equal(store.size, 3);
  // Held: 4, 5, 6. Cursor 3 is resumable (all after it are held); cursor 2 is not (3 is gone).
  assert.equal(await store.getStreamIdForEventId(ids[2]), 'a');
  assert.deepEqual(
    (await replay(store, ids[2])).sent.map((s) => s.n),
    [4, 5, 6],
  );
  assert.equal(await store.getStreamIdForEventId(ids[1]), undefined);
  assert.deepEqual((await replay(store, ids[1])).sent, []);
});

test('the session keeps its most recently written streams', async () => {
  const store = new BoundedEventStore({ eventsPerStream: 5, streams: 2 });
  const a = await store.storeEvent('a', msg(1));
  const b = await store.storeEvent('b', msg(1));
  await store.storeEvent('a', msg(2)); // a is now the most recent
  const c = await store.storeEvent('c', msg(1)); // evicts b, the least recently written
  assert.equal(await store.getStreamIdForEventId(b), undefined);
  assert.equal(await store.getStreamIdForEventId(a), 'a');
  assert.equal(await store.getStreamIdForEventId(c), 'c');
  assert.equal(store.size, 3);
});

test('memory stays bounded under many streams and events', async () => {
  const store = new BoundedEventStore({ eventsPerStream: 7, streams: 5 });
  for (let s = 0; s < 50; s++) for (let i = 0; i < 40; i++) await store.storeEvent(`s${s}`, msg(i));
  assert.equal(store.size, 35);
});

test('ids it never issued, and the newest event as cursor', async () => {
  const store = new BoundedEventStore();
  const last = await store.storeEvent('a', msg(1));
  for (const bad of ['', 'nope', 'a|0', 'a|x', 'a|99', 'z|1']) assert.equal(await store.getStreamIdForEventId(bad), undefined, bad);
  assert.equal(await store.getStreamIdForEventId(last), 'a');
  assert.deepEqual((await replay(store, last)).sent, []);
  assert.throws(() => new BoundedEventStore({ eventsPerStream: 0, streams: 1 }), RangeError);
});
