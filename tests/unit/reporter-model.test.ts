/**
 * Property test of the reporter's delivery state machine against an in-memory ingest model.
 * (The real-socket behaviour is covered by reporter.test.ts; this one explores interleavings.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { createReporter, type FetchLike } from '@doorwatch/reporter';
import { newSecret } from '@/tests/support/receiver';

type Outcome = 'ok' | 'reset' | 'commit-lost' | '500' | '429' | '400' | 'partial';

const outcomeArb = fc.constantFrom<Outcome>('ok', 'ok', 'ok', 'reset', 'commit-lost', '500', '429', '400', 'partial');
const opArb = fc.oneof(
  fc.record({ kind: fc.constant('report' as const), n: fc.integer({ min: 1, max: 12 }) }),
  fc.constant({ kind: 'tick' as const }),
  fc.constant({ kind: 'flush' as const }),
);

test('every reported event is committed exactly once or accounted for, in order, within the memory bound', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(outcomeArb, { maxLength: 40 }),
      fc.array(opArb, { minLength: 1, maxLength: 25 }),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 0, max: 20 }),
      fc.integer({ min: 0, max: 4 }),
      async (outcomes, ops, maxBatchSize, extraBuffer, maxRetries) => {
        const maxBufferedEvents = maxBatchSize + extraBuffer;
        const secret = newSecret();
        const wh = new Webhook(secret);
        const stored = new Map<string, number>(); // id -> report index
        const commitOrder: number[] = [];
        const bodyById = new Map<string, string>();
        const violations: string[] = [];
        let k = 0;
        const fetch: FetchLike = async (_url, init) => {
          await new Promise((r) => setImmediate(r));
          // A throw in here would look like a network error to the reporter, so record violations instead.
          try {
            wh.verify(init.body, init.headers);
          } catch (err) {
            violations.push(`bad signature: ${String(err)}`);
          }
          const prev = bodyById.get(init.headers['webhook-id']);
          if (prev !== undefined && prev !== init.body)
            violations.push(`webhook-id ${init.headers['webhook-id']} reused for a different body`);
          bodyById.set(init.headers['webhook-id'], init.body);
          const events = (JSON.parse(init.body) as { events: { id: string; data: { i: number } }[] }).events;
          if (events.length < 1 || events.length > maxBatchSize) violations.push(`batch of ${events.length}`);
          const outcome = outcomes[k++] ?? 'ok';
          const commit = (skipFirst: boolean) => {
            let accepted = 0;
            let duplicates = 0;
            events.forEach((e, index) => {
              if (skipFirst && index === 0) return;
              if (stored.has(e.id)) duplicates++;
              else {
                stored.set(e.id, e.data.i);
                commitOrder.push(e.data.i);
                accepted++;
              }
            });
            return { accepted, duplicates };
          };
          const respond = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
            status,
            headers: { get: (n: string) => headers[n.toLowerCase()] ?? null },
            text: async () => JSON.stringify(body),
          });
          switch (outcome) {
            case 'reset':
              throw new TypeError('fetch failed');
            case 'commit-lost':
              commit(false);
              throw new TypeError('fetch failed');
            case '500':
              return respond(500, { error: { code: 'internal', message: 'x' } });
            case '429':
              return respond(429, { error: { code: 'rate_limited', message: 'x' } }, { 'retry-after': '0' });
            case '400':
              return respond(400, { error: { code: 'invalid_body', message: 'x' } });
            case 'partial': {
              const r = commit(true);
              return respond(207, { ...r, rejected: [{ index: 0, id: events[0].id, code: 'invalid_event', message: 'x' }] });
            }
            case 'ok':
              return respond(200, { ...commit(false), rejected: [] });
          }
        };

        const accountedFor = new Set<string>();
        const reporter = createReporter({
          url: 'http://doorwatch.test',
          server: 'model',
          secret,
          fetch,
          maxBatchSize,
          maxBufferedEvents,
          maxRetries,
          flushIntervalMs: 1,
          baseBackoffMs: 0,
          maxBackoffMs: 0,
          closeTimeoutMs: 10_000,
          onError: (e) => e.eventIds.forEach((id) => accountedFor.add(id)),
          onDrop: (d) => d.eventIds.forEach((id) => accountedFor.add(id)),
        });

        let n = 0;
        for (const op of ops) {
          if (op.kind === 'report') {
            for (let j = 0; j < op.n; j++, n++) {
              reporter.report({ id: `e${n}`, token: 't', type: 'stream.dropped', at: new Date().toISOString(), data: { i: n } });
              assert.ok(reporter.stats().pendingEvents <= maxBufferedEvents);
            }
          } else if (op.kind === 'tick') {
            await new Promise((r) => setTimeout(r, 0));
          } else {
            await reporter.flush();
          }
        }
        await reporter.close();
        await new Promise((r) => setImmediate(r)); // drop notifications are coalesced per tick

        const s = reporter.stats();
        assert.deepEqual(violations, []);
        assert.equal(s.reported, n);
        assert.equal(s.pendingEvents, 0);
        assert.equal(s.inFlightBatches, 0);
        assert.equal(s.reported, s.accepted + s.duplicates + s.rejected + s.dropped + s.failed, JSON.stringify(s));
        for (let i = 0; i < n; i++) {
          assert.ok(stored.has(`e${i}`) || accountedFor.has(`e${i}`), `e${i} vanished silently`);
        }
        assert.deepEqual(
          commitOrder,
          commitOrder.slice().sort((a, b) => a - b),
          'committed in report order',
        );
        // Committed-as-new on the server == accepted by the reporter, unless a response was lost.
        if (!outcomes.slice(0, k).includes('commit-lost')) assert.equal(stored.size, s.accepted);
      },
    ),
    { numRuns: 150 },
  );
});
