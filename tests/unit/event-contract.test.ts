import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, ZEvent, validateEvent, type EventIssue } from '@/lib/contract/event';
import { eventTimestampMs, parseTimestampMs, toIsoMs } from '@/lib/contract/timestamp';

/** `{a: {a: … {}}}` with `levels` wrappers around the innermost object: depth levels + 1. */
function nested(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

const base = { id: 'srv-1:evt.0001', token: 'tok-A', at: '2026-11-29T10:00:00.123Z' };

function issues(raw: unknown): EventIssue[] {
  const r = validateEvent(raw);
  assert.equal(r.ok, false, 'expected rejection');
  return r.ok ? [] : r.issues;
}

function accept(raw: unknown) {
  const r = validateEvent(raw);
  assert.ok(r.ok, `expected acceptance, got ${JSON.stringify(!r.ok && r.issues)}`);
  return r.event;
}

describe('event contract: accepted shapes', () => {
  test('EVENT_TYPES lists the ten v1 types and the two resumption types', () => {
    assert.deepEqual([...EVENT_TYPES].sort(), [
      'resume.accepted',
      'resume.refused',
      'resume.rejected',
      'resume.requested',
      'session.abandoned',
      'session.closed',
      'session.opened',
      'session.timeout',
      'stream.dropped',
      'upgrade.accepted',
      'upgrade.completed',
      'upgrade.rejected',
    ]);
  });

  const minimal: Record<string, unknown> = {
    'session.opened': undefined,
    'upgrade.accepted': { eventId: 0 },
    'upgrade.completed': undefined,
    'upgrade.rejected': { status: 409 },
    'stream.dropped': undefined,
    'resume.requested': { lastEventId: null },
    'resume.refused': undefined,
    'resume.accepted': { replayed: 0 },
    'session.timeout': undefined,
    'session.closed': undefined,
    'resume.rejected': { status: 409 },
    'session.abandoned': undefined,
  };
  for (const type of EVENT_TYPES) {
    test(`${type} accepts its minimal form`, () => {
      const data = minimal[type];
      const event = accept(data === undefined ? { ...base, type } : { ...base, type, data });
      assert.equal(event.type, type);
      assert.ok(typeof event.data === 'object' && event.data !== null, 'data always present after parsing');
    });
  }

  test('omitted data becomes {} for types without required fields', () => {
    assert.deepEqual(accept({ ...base, type: 'upgrade.completed' }).data, {});
    assert.deepEqual(accept({ ...base, type: 'session.closed' }).data, {});
  });

  test('optional fields are accepted', () => {
    const e = accept({ ...base, seq: 7, type: 'session.opened', data: { previousToken: 'tok-old' } });
    assert.equal(e.seq, 7);
    assert.deepEqual(e.data, { previousToken: 'tok-old' });
    accept({ ...base, type: 'session.timeout', data: { idleMs: 300000 } });
    accept({ ...base, type: 'stream.dropped', data: { reason: 'tcp_reset' } });
    accept({ ...base, type: 'resume.requested', data: { lastEventId: 12 } });
  });

  test('unknown extra data fields are kept', () => {
    const e = accept({ ...base, type: 'upgrade.accepted', data: { eventId: 5, subprotocol: 'mcp.v1', nested: { a: 1 } } });
    assert.deepEqual(e.data, { eventId: 5, subprotocol: 'mcp.v1', nested: { a: 1 } });
    const c = accept({ ...base, type: 'upgrade.completed', data: { wsAcceptMs: 12 } });
    assert.deepEqual(c.data, { wsAcceptMs: 12 });
  });

  test('unknown top-level fields are stripped, not rejected', () => {
    const e = accept({ ...base, type: 'session.closed', server: 'x' });
    assert.equal('server' in e, false);
  });

  test('timestamps: offsets and 1–9 fractional digits are accepted', () => {
    accept({ ...base, at: '2026-11-29T12:00:00.123+02:00', type: 'session.closed' });
    accept({ ...base, at: '2026-11-29T10:00:00.1Z', type: 'session.closed' });
    accept({ ...base, at: '2026-11-29T10:00:00.123456789Z', type: 'session.closed' });
    assert.equal(parseTimestampMs('2026-11-29T12:00:00.123+02:00'), Date.parse('2026-11-29T10:00:00.123Z'));
    assert.equal(parseTimestampMs('2026-11-29T07:30:00.5-02:30'), Date.parse('2026-11-29T10:00:00.500Z'));
    assert.equal(toIsoMs(parseTimestampMs('2026-11-29T10:00:00.123999Z')!), '2026-11-29T10:00:00.123Z');
    assert.equal(parseTimestampMs('2024-02-29T00:00:00.000Z'), Date.parse('2024-02-29T00:00:00.000Z'));
  });

  test('id accepts the full allowed alphabet up to 128 chars', () => {
    accept({ ...base, id: 'aZ0._:-', type: 'session.closed' });
    accept({ ...base, id: 'x'.repeat(128), type: 'session.closed' });
  });

  test('bounds: data nested 32 deep and 64 KiB are accepted; the last instant of 9999 and the epoch too', () => {
    accept({ ...base, type: 'session.closed', data: nested(31) });
    accept({ ...base, type: 'session.closed', data: { blob: 'x'.repeat(64 * 1024 - 12) } });
    assert.equal(eventTimestampMs('9999-12-31T23:59:59.999Z'), Date.UTC(9999, 11, 31, 23, 59, 59, 999));
    assert.equal(eventTimestampMs('9999-12-31T23:59:59.999+23:59'), Date.UTC(9999, 11, 31, 0, 0, 59, 999));
    assert.equal(eventTimestampMs('9999-12-31T23:59:59.999-00:01'), null);
    assert.equal(eventTimestampMs('1970-01-01T00:00:00.000Z'), 0);
    accept({ ...base, token: 'tök ✓ with spaces', type: 'session.closed' });
  });

  test('ZEvent is a discriminated union usable directly', () => {
    assert.equal(ZEvent.safeParse({ ...base, type: 'upgrade.accepted', data: { eventId: 1 } }).success, true);
    assert.equal(ZEvent.safeParse({ ...base, type: 'nope' }).success, false);
  });
});

describe('event contract: rejections with machine codes', () => {
  test('unknown type → invalid_type naming the field', () => {
    const is = issues({ ...base, type: 'upgrade.started' });
    assert.equal(is.length, 1);
    assert.equal(is[0].code, 'invalid_type');
    assert.equal(is[0].path, 'type');
    assert.match(is[0].message, /type/);
    assert.match(is[0].message, /upgrade\.started/);
  });

  test('unknown type still reports envelope problems', () => {
    const is = issues({ id: 'ok', token: '', at: 'yesterday', type: 42 });
    assert.deepEqual(
      is.map((i) => [i.code, i.path]),
      [
        ['invalid_type', 'type'],
        ['invalid_field', 'token'],
        ['invalid_field', 'at'],
      ],
    );
  });

  test('missing type → missing_field', () => {
    assert.deepEqual(
      issues({ ...base }).map((i) => [i.code, i.path]),
      [['missing_field', 'type']],
    );
  });

  test('missing envelope fields → missing_field each', () => {
    const is = issues({ type: 'session.closed' });
    assert.deepEqual(is.map((i) => [i.code, i.path]).sort(), [
      ['missing_field', 'at'],
      ['missing_field', 'id'],
      ['missing_field', 'token'],
    ]);
    for (const i of is) assert.match(i.message, new RegExp(i.path));
  });

  test('missing required data field → missing_field with dotted path, even with data omitted', () => {
    for (const [type, field] of [
      ['upgrade.accepted', 'eventId'],
      ['upgrade.rejected', 'status'],
      ['resume.requested', 'lastEventId'],
      ['resume.accepted', 'replayed'],
    ] as const) {
      for (const raw of [
        { ...base, type },
        { ...base, type, data: {} },
      ]) {
        const is = issues(raw);
        assert.deepEqual(
          is.map((i) => [i.code, i.path]),
          [['missing_field', `data.${field}`]],
        );
        assert.match(is[0].message, new RegExp(`data\\.${field}`));
      }
    }
  });

  test('lastEventId must be present; explicit null is fine', () => {
    accept({ ...base, type: 'resume.requested', data: { lastEventId: null } });
    assert.equal(issues({ ...base, type: 'resume.requested', data: {} })[0].code, 'missing_field');
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['id with space', { ...base, id: 'a b', type: 'session.closed' }, 'id'],
    ['id too long', { ...base, id: 'x'.repeat(129), type: 'session.closed' }, 'id'],
    ['empty id', { ...base, id: '', type: 'session.closed' }, 'id'],
    ['id not a string', { ...base, id: 7, type: 'session.closed' }, 'id'],
    ['empty token', { ...base, token: '', type: 'session.closed' }, 'token'],
    ['token too long', { ...base, token: 't'.repeat(257), type: 'session.closed' }, 'token'],
    ['at without fraction', { ...base, at: '2026-11-29T10:00:00Z', type: 'session.closed' }, 'at'],
    ['at without zone', { ...base, at: '2026-11-29T10:00:00.123', type: 'session.closed' }, 'at'],
    ['at impossible date', { ...base, at: '2026-02-30T10:00:00.123Z', type: 'session.closed' }, 'at'],
    ['at hour 24', { ...base, at: '2026-11-29T24:00:00.123Z', type: 'session.closed' }, 'at'],
    ['at epoch number', { ...base, at: 1764410400123, type: 'session.closed' }, 'at'],
    ['negative seq', { ...base, seq: -1, type: 'session.closed' }, 'seq'],
    ['fractional seq', { ...base, seq: 1.5, type: 'session.closed' }, 'seq'],
    ['negative eventId', { ...base, type: 'upgrade.accepted', data: { eventId: -1 } }, 'data.eventId'],
    ['string eventId', { ...base, type: 'upgrade.accepted', data: { eventId: '5' } }, 'data.eventId'],
    ['fractional status', { ...base, type: 'upgrade.rejected', data: { status: 409.5 } }, 'data.status'],
    ['string lastEventId', { ...base, type: 'resume.requested', data: { lastEventId: '5' } }, 'data.lastEventId'],
    ['negative replayed', { ...base, type: 'resume.accepted', data: { replayed: -2 } }, 'data.replayed'],
    ['numeric previousToken', { ...base, type: 'session.opened', data: { previousToken: 1 } }, 'data.previousToken'],
    ['non-string reason', { ...base, type: 'session.closed', data: { reason: 5 } }, 'data.reason'],
    ['data is null', { ...base, type: 'session.closed', data: null }, 'data'],
    ['data is an array', { ...base, type: 'upgrade.completed', data: [] }, 'data'],
    // Issue 10: what the databases cannot hold is refused here, the same on both.
    ['at past 9999 after its offset', { ...base, at: '9999-12-31T23:59:59.999-23:59', type: 'session.closed' }, 'at'],
    ['at before 1970', { ...base, at: '1969-12-31T23:59:59.999Z', type: 'session.closed' }, 'at'],
    ['at in year 0075', { ...base, at: '0075-06-01T00:00:00.000Z', type: 'session.closed' }, 'at'],
    ['NUL in token', { ...base, token: 'tok\u0000A', type: 'session.closed' }, 'token'],
    ['newline in token', { ...base, token: 'tok\nA', type: 'session.closed' }, 'token'],
    ['C1 control in token', { ...base, token: 'tok\u0085', type: 'session.closed' }, 'token'],
    ['NUL in previousToken', { ...base, type: 'session.opened', data: { previousToken: '\u0000' } }, 'data.previousToken'],
    ['NUL in id', { ...base, id: 'a\u0000', type: 'session.closed' }, 'id'],
    ['data nested 33 deep', { ...base, type: 'session.closed', data: nested(32) }, 'data'],
    ['data nested 5000 deep', { ...base, type: 'session.closed', data: nested(5000) }, 'data'],
    ['data over 64 KiB', { ...base, type: 'session.closed', data: { blob: 'x'.repeat(64 * 1024) } }, 'data'],
  ];
  for (const [name, raw, path] of invalid) {
    test(`${name} → invalid_field at ${path}`, () => {
      const is = issues(raw);
      assert.deepEqual(
        is.map((i) => [i.code, i.path]),
        [['invalid_field', path]],
      );
      assert.ok(is[0].message.startsWith(`${path}:`), is[0].message);
    });
  }

  test('non-object input → invalid_field on the event itself', () => {
    for (const raw of [null, 42, 'event', [base]]) {
      const r = validateEvent(raw);
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.id, null);
        assert.deepEqual(
          r.issues.map((i) => i.code),
          ['invalid_field'],
        );
      }
    }
  });

  test('rejection carries the raw id for ingest reporting', () => {
    const r = validateEvent({ ...base, type: 'upgrade.accepted' });
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.id, base.id);
    const r2 = validateEvent({ ...base, id: 99, type: 'session.closed' });
    if (!r2.ok) assert.equal(r2.id, null);
  });

  test('several problems are reported together', () => {
    const is = issues({ id: 'ok', token: 'tok', at: 'bad', seq: -3, type: 'upgrade.accepted', data: { eventId: 'x' } });
    assert.deepEqual(is.map((i) => i.path).sort(), ['at', 'data.eventId', 'seq']);
  });
});
