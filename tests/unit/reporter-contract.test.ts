// @doorwatch/reporter carries the event contract as plain TypeScript types (it must not depend on
// zod). These checks keep them from drifting from the app's zod contract: the type-level part is
// enforced by `tsc --noEmit` over this file, the runtime part by parsing what the package sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createReporter,
  newEventId,
  type DoorwatchEvent as PackageEvent,
  type EventType as PackageEventType,
  type FetchLike,
  type IngestEnvelope as PackageEnvelope,
  type ReporterStatus as PackageReporterStatus,
} from '@doorwatch/reporter';
import { EVENT_TYPES, ZEvent, type DoorwatchEvent, type DoorwatchEventInput, type EventType } from '@/lib/contract/event';
import { ZIngestEnvelope, type ReporterStatus } from '@/lib/contract/ingest-envelope';
import { newSecret } from '@/tests/support/receiver';

// ---- type level: each assignment fails to compile if the two sides drift ---------------------

/** Compiles only when A and B are assignable both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const check = <T extends true>(): T => true as T;

// What a sender may post is exactly the zod schema's input ...
check<Same<PackageEvent, DoorwatchEventInput>>();
// ... per event type, so a field moved between two types is caught too.
type PerType = { [T in EventType]: Same<Extract<PackageEvent, { type: T }>, Extract<DoorwatchEventInput, { type: T }>> };
check<PerType[EventType]>();
// A validated event (defaults applied) can be re-reported as is.
check<[DoorwatchEvent] extends [PackageEvent] ? true : false>();
check<Same<PackageEventType, EventType>>();
check<Same<PackageReporterStatus, ReporterStatus>>();
// The package's envelope is accepted by the ingest envelope schema's input type.
check<[PackageEnvelope] extends [import('zod').input<typeof ZIngestEnvelope>] ? true : false>();

// ---- runtime: events built and sent by the package parse with the zod schemas ------------------

/** One valid event of every type, typed with the package's types only. */
function oneOfEach(token: string): PackageEvent[] {
  const at = () => new Date().toISOString();
  const events: PackageEvent[] = [
    { id: newEventId(), token, at: at(), type: 'session.opened' },
    { id: newEventId(), token, at: at(), type: 'session.opened', data: { previousToken: 'old', extra: 1 } },
    { id: newEventId(), token, at: at(), type: 'upgrade.accepted', data: { eventId: 4 } },
    { id: newEventId(), token, at: at(), type: 'upgrade.completed', seq: 2 },
    { id: newEventId(), token, at: at(), type: 'upgrade.rejected', data: { status: 409 } },
    { id: newEventId(), token, at: at(), type: 'stream.dropped', data: { reason: 'reset' } },
    { id: newEventId(), token, at: at(), type: 'resume.requested', data: { lastEventId: null } },
    { id: newEventId(), token, at: at(), type: 'resume.requested', data: { lastEventId: 3 } },
    { id: newEventId(), token, at: at(), type: 'resume.refused', data: { reason: 'superseded' } },
    { id: newEventId(), token, at: at(), type: 'resume.accepted', data: { replayed: 2 } },
    { id: newEventId(), token, at: at(), type: 'session.timeout', data: { idleMs: 300000 } },
    { id: newEventId(), token, at: at(), type: 'session.closed' },
    // Contract growth for servers with string SSE ids (the official SDK's stores).
    { id: newEventId(), token, at: at(), type: 'upgrade.accepted', data: { eventId: '_GET_stream_17_x', ordinal: 17 } },
    { id: newEventId(), token, at: at(), type: 'resume.requested', data: { lastEventId: 'abc_1', ordinal: 3 } },
    { id: newEventId(), token, at: at(), type: 'resume.requested', data: { lastEventId: 'unknown', ordinal: null } },
    { id: newEventId(), token, at: at(), type: 'resume.accepted', data: { replayed: 1, available: 2 } },
    { id: newEventId(), token, at: at(), type: 'resume.rejected', data: { status: 409, reason: 'stream already connected' } },
    { id: newEventId(), token, at: at(), type: 'session.abandoned', data: { idleMs: 1000 } },
  ];
  assert.deepEqual(new Set(events.map((e) => e.type)), new Set(EVENT_TYPES), 'every event type is covered');
  return events;
}

test('the bodies the package sends parse with ZIngestEnvelope, and every event with ZEvent', async () => {
  const bodies: string[] = [];
  const fetch: FetchLike = async (_url, init) => {
    bodies.push(init.body);
    const n = (JSON.parse(init.body) as { events: unknown[] }).events.length;
    return { status: 200, headers: new Headers(), text: async () => JSON.stringify({ accepted: n, duplicates: 0, rejected: [] }) };
  };
  const errors: string[] = [];
  const reporter = createReporter({
    url: 'http://doorwatch.invalid',
    server: 's',
    secret: newSecret(),
    fetch,
    instance: 'contract-test',
    maxBatchSize: 5,
    onError: (e) => errors.push(`${e.code}: ${e.message}`),
  });
  const events = oneOfEach('tok-contract');
  for (const e of events) assert.equal(reporter.report(e), true);
  await reporter.close();
  assert.deepEqual(errors, []);
  assert.equal(bodies.length, Math.ceil(events.length / 5));

  const sent: unknown[] = [];
  for (const body of bodies) {
    const envelope = ZIngestEnvelope.parse(JSON.parse(body));
    assert.deepEqual(envelope.reporter, { instance: 'contract-test', dropped: 0, failed: 0 });
    sent.push(...envelope.events);
  }
  assert.equal(sent.length, events.length);
  for (const [i, raw] of sent.entries()) {
    const parsed = ZEvent.safeParse(raw);
    assert.ok(parsed.success, `${events[i].type}: ${parsed.success ? '' : parsed.error.message}`);
    assert.equal(parsed.data.id, events[i].id);
  }
});
