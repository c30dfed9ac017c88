// Door probes against hostile and broken targets (issue 23): hand-written loopback servers that
// stream an SSE line that never ends, lines that never make an event, an endless flood of small
// events, or nothing at all. Every buffer is bounded, the step stops with a `probe_error` whose
// detail names the limit, and a full transcript still keeps the door and its answer.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ledger } from '@/scripts/sim/ledger';
import { startSimServer } from '@/scripts/sim/server';
import { runProbe } from '@/lib/probes/run-probe';
import { TargetLimiter } from '@/lib/probes/target-limiter';
import { DEFAULT_TRANSCRIPT_LIMITS } from '@/lib/probes/transcript';
import { ZProbeResult, type ProbeResult } from '@/lib/contract/probe-result';

// The servers under test listen on loopback, which DOORWATCH_PROBE_ALLOW's default does not allow.
const OPTIONS = { idleMs: 500, stepTimeoutMs: 3_000, resetDelayMs: 20, allow: ['public', 'private', 'loopback'] as const };
const closers: Array<() => Promise<void>> = [];

/** A loopback server answering every GET with a 200 event stream fed by `feed` until the client leaves. */
async function streamingServer(feed: (res: ServerResponse, req: IncomingMessage) => void): Promise<string> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET') return void res.writeHead(204).end();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': `s-${Math.random().toString(36).slice(2)}` });
    feed(res, req);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** Writes `chunk` whenever the socket drains, until the client goes away. */
function flood(res: ServerResponse, chunk: string): void {
  const write = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', write);
  };
  res.on('error', () => {});
  write();
}

function assertContract(result: ProbeResult): void {
  assert.deepEqual(ZProbeResult.parse(JSON.parse(JSON.stringify(result))), result);
}

const run = (url: string, extra: Parameters<typeof runProbe>[1] = {}) =>
  runProbe({ url }, { ...OPTIONS, limiter: new TargetLimiter(), ...extra });

describe('hostile probe targets', () => {
  after(async () => {
    for (const close of closers) await close();
  });

  test('a data line that never ends: the step stops at the event bound with a probe_error', async () => {
    const url = await streamingServer((res) => {
      res.write('data: ');
      flood(res, 'A'.repeat(16 * 1024));
    });
    const result = await run(url);
    assertContract(result);
    for (const step of result.steps) {
      assert.equal(step.answer, 'error');
      assert.match(step.detail ?? '', /probe limit sse_event_bytes: an SSE event went past 65536 bytes without ending/);
      assert.ok(step.transcript.entries.some((e) => e.text.startsWith('probe limit sse_event_bytes')));
    }
    assert.deepEqual(
      result.classification.steps.map((c) => c.finding),
      ['probe_error', 'probe_error', 'probe_error', 'probe_error'],
    );
  });

  test('data lines that never make an event (no blank line): the same bound', async () => {
    const url = await streamingServer((res) => flood(res, `data: ${'B'.repeat(1_000)}\n`));
    const result = await run(url);
    for (const step of result.steps) assert.match(step.detail ?? '', /probe limit sse_event_bytes/);
  });

  test('an endless flood of small events: the step stops at its byte bound', async () => {
    const url = await streamingServer((res) => flood(res, 'event: message\ndata: {"n":1}\n\n'.repeat(100)));
    const result = await run(url, { wireLimits: { maxEventBytes: 64 * 1024, maxStepBytes: 16 * 1024, maxWsPayload: 64 * 1024 } });
    for (const step of result.steps) {
      assert.equal(step.answer, 'error');
      assert.match(step.detail ?? '', /probe limit step_bytes: the step read more than 16384 bytes/);
      assert.ok(step.transcript.entries.length <= 200 && step.transcript.omitted > 0);
    }
  });

  test('a server that never answers: each step ends at its deadline as an error', async () => {
    const hanging = createServer(() => {});
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    closers.push(
      () =>
        new Promise<void>((r) => {
          hanging.closeAllConnections();
          hanging.close(() => r());
        }),
    );
    const result = await run(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/mcp`, { stepTimeoutMs: 1_000 });
    assert.deepEqual(new Set(result.steps.map((s) => s.answer)), new Set(['error']));
    assert.equal(result.classification.verdict, 'inconclusive');
  });

  test('noise before the door fills the transcript, yet the door, the resume and its answer are kept', async () => {
    const server = await startSimServer({
      name: 'chatty',
      mode: 'refusing',
      reporter: null,
      ledger: new Ledger(),
      upgradeAfterMs: () => 600,
      messageIntervalMs: 1,
    });
    closers.push(() => server.close());
    // A small transcript: under heavy load a 1 ms timer fires far fewer times in 600 ms, and the
    // default 200 entries then did not always overflow (a load-only failure). 24 holds every kept
    // entry of a step, and a few dozen noise messages overflow it at any load.
    const result = await run(`${server.url}/mcp`, {
      idleMs: 1_000,
      stepTimeoutMs: 5_000,
      transcriptLimits: { ...DEFAULT_TRANSCRIPT_LIMITS, maxEntries: 24 },
    });
    const [healthy, atDoor] = result.steps;
    assert.ok(healthy.transcript.omitted > 0, 'the noise overflowed the transcript');
    const texts = (s: typeof healthy) => s.transcript.entries.map((e) => e.text);
    assert.ok(
      texts(healthy).some((t) => t.includes('event=upgrade-accepted')),
      'the door is kept',
    );
    assert.ok(
      texts(healthy).some((t) => t.startsWith('HTTP/1.1 101')),
      'the handshake is kept',
    );
    assert.equal(atDoor.answer, 'superseded');
    assert.ok(texts(atDoor).some((t) => t.includes('event=upgrade-accepted')));
    assert.ok(
      texts(atDoor).some((t) => t.startsWith('GET ') && t.includes('last-event-id')),
      'the resume is kept',
    );
    assert.ok(
      texts(atDoor).some((t) => t.includes('event=session-superseded')),
      'its answer is kept',
    );
  });
});
