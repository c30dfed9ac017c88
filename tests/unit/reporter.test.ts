import { test, describe, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  createReporter,
  newEventId,
  computeBackoffMs,
  parseRetryAfterMs,
  EVENT_ID_PATTERN,
  type DropInfo,
  type Reporter,
  type ReporterError,
  type ReporterOptions,
  type ReportableEvent,
} from '@doorwatch/reporter';
import { startReceiver, newSecret, type Receiver } from '@/tests/support/receiver';

const REPO = path.resolve(import.meta.dirname, '../..');

function ev(i: number, data: Record<string, unknown> = { i }) {
  return {
    id: `e-${String(i).padStart(5, '0')}`,
    token: 'tok_test',
    type: 'session.opened' as const,
    at: new Date().toISOString(),
    data,
  } satisfies ReportableEvent;
}

async function waitFor(cond: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// Everything started in a test is torn down here, even when an assertion failed.
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {});
});

async function setup(opts: Partial<ReporterOptions> = {}) {
  const rx = await startReceiver();
  const errors: ReporterError[] = [];
  const drops: DropInfo[] = [];
  const reporter = createReporter({
    url: rx.url,
    server: rx.server,
    secret: rx.secret,
    baseBackoffMs: 5,
    maxBackoffMs: 40,
    onError: (e) => errors.push(e),
    onDrop: (d) => drops.push(d),
    ...opts,
  });
  cleanups.push(() => rx.close());
  cleanups.push(() => reporter.close());
  return { rx, reporter, errors, drops };
}

function storedIds(rx: Receiver): string[] {
  return [...rx.events.keys()].sort();
}

function assertConserved(r: Reporter): void {
  const s = r.stats();
  assert.equal(s.reported, s.accepted + s.duplicates + s.rejected + s.dropped + s.failed + s.pendingEvents, JSON.stringify(s));
}

describe('reporter pure helpers', () => {
  test('newEventId matches the ingest id pattern and is unique', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newEventId()));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.match(id, EVENT_ID_PATTERN);
    assert.match(newEventId('sess.open'), /^sess\.open_[0-9a-f-]{36}$/);
    assert.throws(() => newEventId('bad prefix'));
  });

  test('computeBackoffMs: full jitter under an exponential, capped ceiling; Retry-After is a floor', () => {
    const o = { baseBackoffMs: 100, maxBackoffMs: 1000 };
    assert.equal(computeBackoffMs(0, { ...o, random: () => 0 }), 0);
    assert.equal(computeBackoffMs(0, { ...o, random: () => 0.999 }), 99);
    assert.equal(computeBackoffMs(3, { ...o, random: () => 0.5 }), 400);
    assert.equal(computeBackoffMs(50, { ...o, random: () => 0.999 }), 999); // capped
    assert.equal(computeBackoffMs(2000, { ...o, random: () => 0.5 }), 500); // 2^2000 is Infinity, still capped
    assert.equal(computeBackoffMs(0, { ...o, random: () => 0.5, retryAfterMs: 5000 }), 5000); // floor beats cap
    assert.equal(computeBackoffMs(4, { ...o, random: () => 0.9, retryAfterMs: 10 }), 900);
  });

  test('parseRetryAfterMs: seconds or HTTP-date, garbage ignored', () => {
    const now = Date.parse('2026-11-09T12:00:00Z');
    assert.equal(parseRetryAfterMs('0', now), 0);
    assert.equal(parseRetryAfterMs(' 3 ', now), 3000);
    assert.equal(parseRetryAfterMs('Mon, 09 Nov 2026 12:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfterMs('Mon, 09 Nov 2026 11:59:00 GMT', now), 0); // in the past
    for (const bad of [null, undefined, '', '-1', '1.5', 'soon', '12abc']) assert.equal(parseRetryAfterMs(bad, now), null, String(bad));
  });

  test('createReporter validates its configuration up front', () => {
    const base = { url: 'http://127.0.0.1:1', server: 's', secret: newSecret() };
    assert.throws(() => createReporter({ ...base, url: 'not a url' }));
    assert.throws(() => createReporter({ ...base, url: 'ftp://x' }));
    assert.throws(() => createReporter({ ...base, maxBatchSize: 1001 }));
    assert.throws(() => createReporter({ ...base, maxBatchSize: 10, maxBufferedEvents: 5 }));
    assert.throws(() => createReporter({ ...base, secret: '' }));
  });
});

describe('reporter against a real receiver', () => {
  test('batches by size, in order, and flush() sends the remainder', async () => {
    const { rx, reporter } = await setup({ maxBatchSize: 10, flushIntervalMs: 60_000 });
    for (let i = 0; i < 35; i++) reporter.report(ev(i));
    await rx.waitForRequests(3);
    await waitFor(() => reporter.stats().pendingEvents === 5, 5000, 'three batches acknowledged');
    assert.equal(rx.requests.length, 3, 'the partial batch waits for the interval');
    await reporter.flush();
    assert.deepEqual(
      rx.requests.map((r) => r.eventIds.length),
      [10, 10, 10, 5],
    );
    assert.deepEqual(
      rx.requests.flatMap((r) => r.eventIds),
      Array.from({ length: 35 }, (_, i) => ev(i).id),
      'sent in report order',
    );
    assert.equal(new Set(rx.requests.map((r) => r.webhookId)).size, 4);
    assert.ok(rx.requests.every((r) => r.signatureValid && r.outcome === 200));
    const s = reporter.stats();
    assert.equal(s.accepted, 35);
    assert.equal(s.sent, 35);
    assert.equal(s.pendingEvents, 0);
    assert.equal(s.inFlightBatches, 0);
    assertConserved(reporter);
  });

  test('batches by time: a partial batch goes out after flushIntervalMs without flush()', async () => {
    const { rx, reporter } = await setup({ maxBatchSize: 100, flushIntervalMs: 100 });
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) reporter.report(ev(i));
    await rx.waitForRequests(1, 5000);
    const waited = rx.requests[0].at - t0;
    assert.ok(waited >= 90, `sent after ${waited} ms, before the interval`);
    assert.ok(waited < 3000, `sent after ${waited} ms`);
    assert.equal(rx.requests[0].eventIds.length, 3);
    await waitFor(() => reporter.stats().accepted === 3);
  });

  test('splits batches by serialised size and rejects a single oversized event locally', async () => {
    const { rx, reporter, errors } = await setup({ maxBatchSize: 100, flushIntervalMs: 60_000, maxBatchBytes: 1000 });
    for (let i = 0; i < 10; i++) reporter.report(ev(i, { pad: 'x'.repeat(250) }));
    assert.equal(reporter.report(ev(99, { pad: 'x'.repeat(2000) })), false);
    await reporter.flush();
    assert.ok(rx.requests.length >= 4, `${rx.requests.length} requests`);
    for (const r of rx.requests) assert.ok(Buffer.byteLength(r.body) <= 1000, `body of ${Buffer.byteLength(r.body)} bytes`);
    assert.equal(rx.events.size, 10);
    assert.equal(reporter.stats().rejected, 1);
    assert.equal(errors[0]?.code, 'invalid_event');
    assertConserved(reporter);
  });

  test('nothing lost or duplicated across resets, 5xx, lost responses and slow answers', async () => {
    const { rx, reporter, errors } = await setup({ maxBatchSize: 7, flushIntervalMs: 10, maxRetries: 10 });
    rx.script(
      { kind: 'reset' },
      { kind: 'status', status: 500 },
      { kind: 'commit-then-reset' }, // committed, but the reporter cannot know: it must resend the same message
      { kind: 'status', status: 503, retryAfter: '0' },
      { kind: 'ok' },
      { kind: 'delay', ms: 80, then: { kind: 'status', status: 502 } },
      { kind: 'ok' },
      { kind: 'commit-then-reset' },
      { kind: 'delay', ms: 30 },
      { kind: 'reset' },
    );
    const reported: string[] = [];
    for (let i = 0; i < 50; i++) {
      const e = ev(i);
      reported.push(e.id);
      reporter.report(e);
      if (i % 9 === 0) await new Promise((r) => setTimeout(r, 3)); // interleave reports with deliveries
    }
    await reporter.flush();

    assert.deepEqual(storedIds(rx), reported.slice().sort(), 'stored set == reported set');
    assert.deepEqual(rx.conflicts, [], 'a webhook-id never carried two different bodies');
    // Every retry of a message reuses its webhook-id: attempts of one id are consecutive and identical.
    const byId = new Map<string, string[]>();
    for (const r of rx.requests) byId.set(r.webhookId, [...(byId.get(r.webhookId) ?? []), r.body]);
    assert.ok(
      [...byId.values()].some((bodies) => bodies.length >= 3),
      'the first batch was attempted several times under one id',
    );
    const order = rx.requests.map((r) => r.webhookId).filter((id, i, a) => i === 0 || a[i - 1] !== id);
    assert.equal(order.length, byId.size, 'batches are not interleaved (one in flight at a time)');

    const s = reporter.stats();
    assert.equal(s.accepted + s.duplicates, 50);
    assert.ok(s.duplicates >= 7, `duplicates ${s.duplicates}: the lost-response batches come back as duplicates`);
    assert.equal(s.retries, rx.requests.length - byId.size);
    assert.ok(s.retries >= 7, `retries ${s.retries}`);
    assert.equal(s.failed + s.rejected + s.dropped, 0);
    assert.deepEqual(errors, []);
    assertConserved(reporter);
  });

  test('honours Retry-After in seconds as a minimum delay', async () => {
    const { rx, reporter } = await setup({ baseBackoffMs: 1, maxBackoffMs: 5, flushIntervalMs: 1 });
    rx.script({ kind: 'status', status: 429, retryAfter: '1' });
    reporter.report(ev(1));
    await reporter.flush();
    assert.equal(rx.requests.length, 2);
    const gap = rx.requests[1].at - rx.requests[0].at;
    assert.ok(gap >= 990, `retried after ${gap.toFixed(0)} ms, Retry-After was 1 s`);
    assert.ok(gap < 6000, `retried after ${gap.toFixed(0)} ms`);
    assert.equal(rx.requests[0].webhookId, rx.requests[1].webhookId);
    assert.equal(reporter.stats().retries, 1);
    assert.equal(rx.events.size, 1);
  });

  test('honours Retry-After as an HTTP-date, and it holds back the next batch too', async () => {
    const { rx, reporter } = await setup({ baseBackoffMs: 1, maxBackoffMs: 5, flushIntervalMs: 1, maxBatchSize: 2 });
    const until = Date.now() + 2000;
    rx.script({ kind: 'status', status: 503, retryAfter: new Date(until).toUTCString() });
    reporter.report(ev(1));
    await rx.waitForRequests(1);
    await waitFor(() => reporter.stats().inFlightBatches === 0, 5000, 'the 503 to be received');
    for (let i = 2; i < 6; i++) reporter.report(ev(i));
    await reporter.flush();
    // HTTP-dates have 1 s resolution, so the server asked for between 1 and 2 s.
    const first = rx.requests[0].at;
    for (const r of rx.requests.slice(1)) {
      assert.ok(r.at - first >= 900, `a request ${(r.at - first).toFixed(0)} ms after the 503`);
    }
    assert.ok(rx.requests[1].at - first < 7000);
    assert.equal(rx.events.size, 5);
  });

  test('400 is not retried; the events count as rejected and later batches still flow', async () => {
    const { rx, reporter, errors } = await setup({ flushIntervalMs: 1 });
    rx.script({ kind: 'status', status: 400, code: 'invalid_body' });
    for (let i = 0; i < 3; i++) reporter.report(ev(i));
    await reporter.flush();
    assert.equal(rx.requests.length, 1);
    let s = reporter.stats();
    assert.equal(s.rejected, 3);
    assert.equal(s.retries, 0);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].code, 'batch_rejected');
    assert.equal(errors[0].status, 400);
    assert.equal(errors[0].serverCode, 'invalid_body');
    assert.deepEqual(errors[0].eventIds, [ev(0).id, ev(1).id, ev(2).id]);

    reporter.report(ev(10));
    reporter.report(ev(11));
    await reporter.flush();
    assert.deepEqual(storedIds(rx), [ev(10).id, ev(11).id]);
    s = reporter.stats();
    assert.equal(s.accepted, 2);
    assertConserved(reporter);
  });

  test('207 per-event rejections are dead-lettered, not retried', async () => {
    const { rx, reporter, errors } = await setup({ flushIntervalMs: 1 });
    rx.rejectEvent = (e) => ((e.data as { bad?: boolean } | undefined)?.bad ? 'invalid_event' : null);
    for (let i = 0; i < 5; i++) reporter.report(ev(i, { bad: i % 2 === 1 }));
    await reporter.flush();
    assert.equal(rx.requests.length, 1);
    assert.equal(rx.requests[0].outcome, 207);
    const s = reporter.stats();
    assert.equal(s.accepted, 3);
    assert.equal(s.rejected, 2);
    assert.equal(errors[0]?.code, 'events_rejected');
    assert.deepEqual(errors[0].eventIds, [ev(1).id, ev(3).id]);
    assert.equal(errors[0].rejected?.[0].code, 'invalid_event');
    assertConserved(reporter);
  });

  test('a wrong secret gets 401, which is not retried', async () => {
    const { rx, reporter, errors } = await setup({ flushIntervalMs: 1, secret: newSecret() });
    reporter.report(ev(1));
    await reporter.flush();
    assert.equal(rx.requests.length, 1);
    assert.equal(rx.requests[0].signatureValid, false);
    assert.equal(errors[0]?.status, 401);
    assert.equal(reporter.stats().rejected, 1);
  });

  test('gives up after maxRetries and says so', async () => {
    const { rx, reporter, errors } = await setup({ flushIntervalMs: 1, maxRetries: 2, baseBackoffMs: 1 });
    rx.setDefault({ kind: 'status', status: 500 });
    for (let i = 0; i < 3; i++) reporter.report(ev(i));
    await reporter.flush();
    assert.equal(rx.requests.length, 3, 'one attempt + two retries');
    const s = reporter.stats();
    assert.equal(s.failed, 3);
    assert.equal(s.retries, 2);
    assert.equal(errors[0]?.code, 'retries_exhausted');
    assert.equal(errors[0].status, 500);
    assertConserved(reporter);
  });

  test('memory is bounded: overflow drops the oldest unacknowledged events and reports them', async () => {
    const { rx, reporter, drops } = await setup({
      maxBatchSize: 5,
      maxBufferedEvents: 20,
      flushIntervalMs: 60_000,
      baseBackoffMs: 1,
      maxBackoffMs: 2,
    });
    rx.script({ kind: 'status', status: 503, retryAfter: '1' });
    for (let i = 0; i < 5; i++) reporter.report(ev(i)); // a full batch: sent at once, answered 503
    await rx.waitForRequests(1);
    await waitFor(() => reporter.stats().inFlightBatches === 0, 5000, 'the 503');
    // Now e0..e4 wait for their retry. 17 more events make 22 > 20: the two oldest (e0, e1) go.
    for (let i = 5; i < 22; i++) {
      reporter.report(ev(i));
      assert.ok(reporter.stats().pendingEvents <= 20);
    }
    assert.equal(reporter.stats().dropped, 2);
    // Five more: e2, e3, e4 (the rest of the waiting batch) and then e5, e6 from the buffer.
    for (let i = 22; i < 27; i++) {
      reporter.report(ev(i));
      assert.ok(reporter.stats().pendingEvents <= 20);
    }
    let s = reporter.stats();
    assert.equal(s.dropped, 7);
    assert.equal(s.pendingEvents, 20);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      drops.flatMap((d) => d.eventIds),
      [0, 1, 2, 3, 4, 5, 6].map((i) => ev(i).id),
    );
    assert.ok(drops.every((d) => d.reason === 'overflow'));

    await reporter.flush();
    assert.deepEqual(
      storedIds(rx),
      Array.from({ length: 20 }, (_, i) => ev(i + 7).id),
    );
    assert.deepEqual(rx.conflicts, []);
    // Nothing went out before the server's Retry-After had passed.
    for (const r of rx.requests.slice(1)) assert.ok(r.at - rx.requests[0].at >= 990);
    s = reporter.stats();
    assert.equal(s.accepted, 20);
    assertConserved(reporter);
    // Every batch tells Doorwatch what this reporter had lost so far (cumulative, per instance).
    const statuses = rx.requests.map((r) => JSON.parse(r.body).reporter);
    assert.ok(statuses.every((st) => typeof st.instance === 'string' && st.instance === statuses[0].instance));
    assert.equal(statuses[0].dropped, 0, 'the first batch went out before any drop');
    assert.equal(statuses.at(-1).dropped, 7);
    assert.equal(statuses.at(-1).failed, 0);
  });

  test('the instance name is configurable and checked', async () => {
    const { rx, reporter } = await setup({ instance: 'edge-7:worker.2' });
    reporter.report(ev(1));
    await reporter.flush();
    assert.equal(JSON.parse(rx.requests[0].body).reporter.instance, 'edge-7:worker.2');
    assert.throws(
      () => createReporter({ url: 'http://127.0.0.1:1', server: 's', secret: 'whsec_AAAA', instance: 'has space' }),
      /instance must match/,
    );
  });

  test('dropping part of a batch that waits to retry re-signs the rest under a new webhook-id', async () => {
    const { rx, reporter } = await setup({
      maxBatchSize: 5,
      maxBufferedEvents: 6,
      flushIntervalMs: 60_000,
      baseBackoffMs: 150,
      maxBackoffMs: 150,
      random: () => 0.99,
    });
    rx.script({ kind: 'status', status: 500 });
    for (let i = 0; i < 5; i++) reporter.report(ev(i));
    await rx.waitForRequests(1);
    await waitFor(() => reporter.stats().inFlightBatches === 0, 5000, 'the 500');
    reporter.report(ev(5));
    reporter.report(ev(6)); // 7 > 6: e0 goes
    await reporter.flush();
    assert.equal(reporter.stats().dropped, 1);
    assert.notEqual(rx.requests[1].webhookId, rx.requests[0].webhookId);
    assert.deepEqual(
      rx.requests[1].eventIds,
      [1, 2, 3, 4].map((i) => ev(i).id),
    );
    assert.deepEqual(
      storedIds(rx),
      [1, 2, 3, 4, 5, 6].map((i) => ev(i).id),
    );
    assert.deepEqual(rx.conflicts, []);
  });

  test('close() flushes what is buffered, then report() is a counted no-op', async () => {
    const { rx, reporter, drops } = await setup({ flushIntervalMs: 60_000, maxBatchSize: 100 });
    for (let i = 0; i < 10; i++) reporter.report(ev(i));
    assert.equal(rx.requests.length, 0);
    await reporter.close();
    assert.equal(rx.events.size, 10);
    assert.equal(reporter.report(ev(10)), false);
    await reporter.close(); // idempotent
    await reporter.flush(); // resolves after close
    await new Promise((r) => setImmediate(r));
    const s = reporter.stats();
    assert.equal(s.accepted, 10);
    assert.equal(s.dropped, 1);
    assert.equal(s.pendingEvents, 0);
    assert.deepEqual(drops, [{ reason: 'closed', count: 1, eventIds: [ev(10).id] }]);
    assert.equal(rx.events.size, 10);
    assertConserved(reporter);
  });

  test('close() gives up after closeTimeoutMs while the server keeps failing', async () => {
    // Count attempts where the reporter makes them: the receiver may log one that was already on
    // the wire when close() aborted it only after close() has returned.
    let attempts = 0;
    const countingFetch: typeof fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const { rx, reporter, errors } = await setup({
      flushIntervalMs: 60_000,
      closeTimeoutMs: 300,
      baseBackoffMs: 20,
      maxBackoffMs: 50,
      maxRetries: 1000,
      fetch: countingFetch,
    });
    rx.setDefault({ kind: 'status', status: 503 });
    for (let i = 0; i < 5; i++) reporter.report(ev(i));
    const t0 = performance.now();
    await reporter.close();
    const took = performance.now() - t0;
    assert.ok(took >= 250 && took < 5000, `close took ${took.toFixed(0)} ms`);
    const s = reporter.stats();
    assert.equal(s.failed, 5);
    assert.equal(s.pendingEvents, 0);
    assert.ok(rx.requests.length >= 2);
    assert.equal(errors.at(-1)?.code, 'close_timeout');
    const n = attempts;
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(attempts, n, 'no more attempts after close()');
  });

  test('invalid events are refused locally and never sent', async () => {
    const { rx, reporter, errors } = await setup({ flushIntervalMs: 1 });
    assert.equal(reporter.report({ ...ev(1), id: 'has space' }), false);
    assert.equal(reporter.report({ ...ev(2), token: '' }), false);
    assert.equal(reporter.report(null as unknown as ReportableEvent), false);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    assert.equal(reporter.report(ev(3, circular)), false);
    await reporter.flush();
    assert.equal(rx.requests.length, 0);
    assert.equal(reporter.stats().rejected, 4);
    assert.deepEqual(
      errors.map((e) => e.code),
      ['invalid_event', 'invalid_event', 'invalid_event', 'invalid_event'],
    );
    assertConserved(reporter);
  });
});

describe('process lifetime', () => {
  test('an idle or retrying reporter does not keep the Node process alive', async () => {
    // The reporter targets a port nothing listens on and backs off for a minute; the process must still exit.
    const script = `
      const { createReporter } = require('@doorwatch/reporter');
      const r = createReporter({ url: 'http://127.0.0.1:9', server: 's', secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64'),
        flushIntervalMs: 5, baseBackoffMs: 60000, maxBackoffMs: 60000 });
      r.report({ id: 'e1', token: 't', type: 'session.opened', at: new Date().toISOString() });
      const idle = createReporter({ url: 'http://127.0.0.1:9', server: 's', secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64'), flushIntervalMs: 60000 });
      idle.report({ id: 'e2', token: 't', type: 'session.opened', at: new Date().toISOString() });
      setTimeout(() => console.log('sent=' + r.stats().sent), 300);
    `;
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      const kill = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`child still alive after 15 s: ${out}`));
      }, 15_000);
      child.on('exit', (c) => {
        clearTimeout(kill);
        resolve(c);
      });
    });
    assert.equal(code, 0, out);
    assert.match(out, /sent=1/);
    assert.ok(performance.now() - t0 < 15_000);
  });
});
