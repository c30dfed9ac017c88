// The adapter's OrdinalEventStore around the official SDK's own InMemoryEventStore (string ids).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { OrdinalEventStore, type ReplayOutcome } from '@doorwatch/reporter/mcp-sdk';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

async function replay(store: OrdinalEventStore<JSONRPCMessage>, cursor: string): Promise<string[]> {
  const sent: string[] = [];
  await store.replayEventsAfter(cursor, { send: async (id) => void sent.push(id) });
  return sent;
}

test('ordinals grow per stored event; stream ids are known for every stored id', async () => {
  const outcomes: ReplayOutcome[] = [];
  const store = new OrdinalEventStore(new InMemoryEventStore(), (o) => outcomes.push(o));
  const a = await store.storeEvent('req1', note(1));
  const b = await store.storeEvent('req2', note(2));
  const c = await store.storeEvent('req1', note(3));
  assert.deepEqual(
    [a, b, c].map((id) => store.ordinalOf(id)),
    [1, 2, 3],
  );
  assert.equal(await store.getStreamIdForEventId(c), 'req1');
  assert.equal(await store.getStreamIdForEventId('never-stored'), undefined);
  assert.equal(store.ordinalOf('never-stored'), null);
});

test('a complete replay: replayed equals what the store held after the cursor on that stream', async () => {
  const outcomes: ReplayOutcome[] = [];
  const store = new OrdinalEventStore(new InMemoryEventStore(), (o) => outcomes.push(o));
  const first = await store.storeEvent('req1', note(1));
  await store.storeEvent('req2', note(2)); // another stream: never counted
  // Distinct milliseconds: the SDK store orders its replay by the id string, which starts with the time.
  for (let i = 3; i <= 5; i++) {
    await new Promise((r) => setTimeout(r, 2));
    await store.storeEvent('req1', note(i));
  }
  const sent = await replay(store, first);
  assert.equal(sent.length, 3);
  assert.deepEqual(outcomes, [{ lastEventId: first, replayed: 3, available: 3 }]);
});

test('the SDK example store on the standalone GET stream replays nothing although it holds events: an idle resume', async () => {
  // Its ids are `${streamId}_…` and it recovers the stream by splitting on "_", which fails for
  // the standalone stream "_GET_stream" (typescript-sdk #943): the adapter sees it from the counts.
  const outcomes: ReplayOutcome[] = [];
  const store = new OrdinalEventStore(new InMemoryEventStore(), (o) => outcomes.push(o));
  const cursor = await store.storeEvent('_GET_stream', note(1));
  await store.storeEvent('_GET_stream', note(2));
  await store.storeEvent('_GET_stream', note(3));
  assert.deepEqual(await replay(store, cursor), []);
  assert.deepEqual(outcomes, [{ lastEventId: cursor, replayed: 0, available: 2 }]);
});

test('an unknown cursor: available is unknown, not zero', async () => {
  const outcomes: ReplayOutcome[] = [];
  const store = new OrdinalEventStore(new InMemoryEventStore(), (o) => outcomes.push(o));
  await store.storeEvent('req1', note(1));
  assert.deepEqual(await replay(store, 'req1_0_nope'), []);
  assert.deepEqual(outcomes, [{ lastEventId: 'req1_0_nope', replayed: 0, available: undefined }]);
});
