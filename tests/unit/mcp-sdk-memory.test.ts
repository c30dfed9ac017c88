// The MCP SDK adapter forgets the messages of ended sessions (issue 23: after 40 sessions of
// 512 KB, all DELETEd, the server held +27 MB with the adapter). 1,000 sessions with the official
// SDK's transport and its example in-memory store each store 64 KB and are closed; after GC the
// heap may keep their ids (what later reports need), not their messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMcpSdkAdapter } from '@doorwatch/reporter/mcp-sdk';

const SESSIONS = 1_000;
const EVENTS_PER_SESSION = 4;
const EVENT_BYTES = 16 * 1024;

/** global.gc with --expose-gc; otherwise the flag is set at run time and gc taken from a fresh context. */
function collector(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function heapAfterGc(gc: () => void): Promise<number> {
  // Two rounds with a turn in between: finalisers and weak callbacks of the first run settle.
  for (let i = 0; i < 2; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

test('1,000 ended sessions: the heap keeps their ids, not their messages', async (t) => {
  const gc = collector();
  let reported = 0;
  const adapter = createMcpSdkAdapter({ reporter: { report: () => (reported += 1) > 0 }, idleTimeoutMs: 0 });
  const baseline = await heapAfterGc(gc);
  const ids: string[] = [];

  for (let n = 0; n < SESSIONS; n++) {
    const sessionId = randomUUID();
    ids.push(sessionId);
    const watched = adapter.session(sessionId, new InMemoryEventStore());
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: watched.eventStore,
      onsessioninitialized: watched.onsessioninitialized,
      onsessionclosed: watched.onsessionclosed,
    });
    watched.attach(transport);
    watched.onsessioninitialized();
    for (let i = 0; i < EVENTS_PER_SESSION; i++) {
      // Each message its own flat string of EVENT_BYTES (a padded one would share its filler).
      const text = randomBytes(EVENT_BYTES / 2).toString('hex');
      const message: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { n, i, text } };
      await watched.eventStore.storeEvent('_GET_stream', message);
    }
    await transport.close(); // the SDK's close: onclose → the adapter ends the session
  }

  const after = await heapAfterGc(gc);
  const payload = SESSIONS * EVENTS_PER_SESSION * EVENT_BYTES; // 64 MiB of messages went through
  const growth = after - baseline;
  // The adapter is still in use (and so still reachable): it remembers every ended session.
  assert.ok(ids.every((id) => adapter.get(id)?.isEnded === true));
  t.diagnostic(`heap growth after GC: ${(growth / 2 ** 20).toFixed(2)} MiB (bound ${(payload / 8 / 2 ** 20).toFixed(0)} MiB)`);
  assert.ok(reported >= SESSIONS * 2, 'each session reported its open and close');
  // What may stay: ids, ordinals and small objects per session, far below the messages' size.
  assert.ok(growth < payload / 8, `heap grew ${(growth / 2 ** 20).toFixed(1)} MiB over ${(payload / 2 ** 20).toFixed(0)} MiB of messages`);
});
