import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TargetLimiter } from '@/lib/probes/target-limiter';
import { REDACTED, TranscriptRecorder } from '@/lib/probes/transcript';

describe('probe transcript', () => {
  test('redacts the credential header, Authorization and Cookie, and the credential value anywhere', () => {
    const t = new TranscriptRecorder(performance.now(), { header: 'X-Api-Key', value: 'k-123-secret' });
    t.record(
      '>',
      `GET /mcp\n${t.headers({ 'x-api-key': 'k-123-secret', authorization: 'Bearer abc', Cookie: 'sid=1', accept: 'text/event-stream' })}`,
    );
    t.record('<', 'sse event=message data={"echo":"k-123-secret"}');
    const text = JSON.stringify(t.snapshot());
    assert.ok(!text.includes('k-123-secret') && !text.includes('Bearer abc') && !text.includes('sid=1'), text);
    assert.ok(
      text.includes(`x-api-key: ${REDACTED}`) && text.includes(`authorization: ${REDACTED}`) && text.includes(`Cookie: ${REDACTED}`),
    );
    assert.ok(text.includes('accept: text/event-stream'));
  });

  test('is bounded: entry length, entry count and total size; the rest is counted', () => {
    const t = new TranscriptRecorder(performance.now(), null, { maxEntries: 5, maxEntryChars: 20, maxTotalChars: 60 });
    for (let i = 0; i < 50; i++) t.record('<', `event ${i} ${'x'.repeat(100)}`);
    const { entries, omitted } = t.snapshot();
    assert.ok(entries.length <= 5);
    assert.ok(entries.every((e) => e.text.length <= 20));
    assert.equal(entries.length + omitted, 50);
    assert.ok(entries.reduce((n, e) => n + e.text.length, 0) <= 60 + 20);
  });
});

describe('per-target concurrency', () => {
  test('at most perTarget run at once per key, in arrival order; other keys are independent', async () => {
    const limiter = new TargetLimiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const job = (i: number) =>
      limiter.run('http://a', async () => {
        running += 1;
        peak = Math.max(peak, running);
        order.push(i);
        await new Promise((r) => setTimeout(r, 5));
        running -= 1;
        return i;
      });
    const other = limiter.run('http://b', async () => limiter.active('http://b'));
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map(job));
    assert.deepEqual(results, [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5]);
    assert.equal(peak, 2);
    assert.equal(await other, 1);
    assert.equal(limiter.active('http://a'), 0);
  });

  test('a failing probe frees its slot', async () => {
    const limiter = new TargetLimiter(1);
    await assert.rejects(limiter.run('k', async () => Promise.reject(new Error('boom'))));
    assert.equal(await limiter.run('k', async () => 'next'), 'next');
    assert.throws(() => new TargetLimiter(0), RangeError);
  });
});
