// Time ranges, bucket choice, cursors and list parameters.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTimeRange, resolveBucketMs } from '@/lib/queries/time-range';
import { decodeCursor, encodeCursor } from '@/lib/queries/session-cursor';
import { parseSessionQuery } from '@/lib/queries/session-filter';
import { filterSql } from '@/lib/store/session-pages';
import { parseStatsQuery } from '@/lib/queries/stats-query';
import { csvCell } from '@/lib/queries/session-export';
import { parseQuery } from '@/lib/http/parse-input';
import { ZSessionExportQuery, ZSessionListQuery } from '@/lib/contract/api/sessions';
import { ZStatsQuery } from '@/lib/contract/api/stats';
import { ZDeadLetterQuery } from '@/lib/contract/api/dead-letters';
import { parseDeadLetterQuery } from '@/lib/queries/dead-letter-list';

const NOW = Date.parse('2026-11-29T12:34:56.789Z');
const MIN = 60_000;
const H = 60 * MIN;
const code = (c: string) => (e: any) => e.code === c && e.status === 400;

describe('time range at the API edge (grammar and properties: tests/unit/time.test.ts)', () => {
  const withParam = (c: string, param: string) => (e: any) => e.code === c && e.status === 400 && e.details?.param === param;

  test("defaults to lib/time's DEFAULT_RANGE (last 15 minutes), aligned outward to whole minutes", () => {
    const r = parseTimeRange(null, undefined, NOW);
    assert.equal(r.fromInput, 'now-15m');
    assert.equal(r.toInput, 'now');
    assert.equal(r.fromMs, Math.floor((NOW - 15 * MIN) / MIN) * MIN);
    assert.equal(r.toMs, Math.ceil(NOW / MIN) * MIN);
  });

  test('errors are 400 invalid_time_range naming the parameter', () => {
    assert.throws(() => parseTimeRange('garbage', 'now', NOW), withParam('invalid_time_range', 'from'));
    assert.throws(() => parseTimeRange('now', 'nope', NOW), withParam('invalid_time_range', 'to'));
    assert.throws(() => parseTimeRange('now', 'now-1h', NOW), withParam('invalid_time_range', 'range'));
    assert.throws(() => parseTimeRange('now-1h', 'now-1h', NOW), withParam('invalid_time_range', 'range'));
    assert.throws(() => parseTimeRange('now-500d', 'now', NOW), withParam('invalid_time_range', 'range'));
  });

  test('instants beyond the supported years are 400s, not 500s', () => {
    assert.throws(() => parseTimeRange('9999999999990000', 'now', NOW), withParam('invalid_time_range', 'from'));
    assert.throws(() => parseTimeRange('now-1h', 'now+999999999w', NOW), withParam('invalid_time_range', 'to'));
    assert.throws(() => parseTimeRange('now-999999999y', 'now', NOW), withParam('invalid_time_range', 'from'));
    assert.throws(() => parseTimeRange('1969-12-31T23:00:00Z', 'now', NOW), withParam('invalid_time_range', 'from'));
    assert.throws(
      () => parseStatsQuery(parseQuery(ZStatsQuery, new URLSearchParams('from=9999999999990000')), NOW),
      withParam('invalid_time_range', 'from'),
    );
    assert.throws(
      () => parseSessionQuery(parseQuery(ZSessionListQuery, new URLSearchParams('to=now%2B999999999w')), NOW, 10_000, 0),
      withParam('invalid_time_range', 'to'),
    );
  });

  test('explicit bucket=, validated, 400 invalid_bucket', () => {
    assert.equal(resolveBucketMs('5m', H), 5 * MIN);
    assert.equal(resolveBucketMs('1h', 24 * H), H);
    assert.equal(resolveBucketMs('1d', 24 * H), 24 * H);
    assert.equal(resolveBucketMs('', H), MIN);
    for (const bad of ['5', '0m', '1.5h', '1y', 'm5'])
      assert.throws(() => resolveBucketMs(bad, H), withParam('invalid_bucket', 'bucket'), bad);
    assert.throws(() => resolveBucketMs('1m', 7 * 24 * H), code('invalid_bucket'));
  });

  test('stats parameters', () => {
    const q = parseStatsQuery(parseQuery(ZStatsQuery, new URLSearchParams('from=now-1h&server=alpha')), NOW);
    assert.equal(q.server, 'alpha');
    assert.equal(q.bucketMs, MIN);
    assert.throws(() => parseStatsQuery(parseQuery(ZStatsQuery, new URLSearchParams('server=a&server=b')), NOW), code('invalid_server'));
    assert.throws(() => parseStatsQuery(parseQuery(ZStatsQuery, new URLSearchParams('from=x')), NOW), code('invalid_time_range'));
  });
});

describe('cursor', () => {
  test('round trip', () => {
    const c = { sort: '-lastEventAt' as const, key: 1796032800123, server: 'alpha', token: 'tök,"/+' };
    const s = encodeCursor(c);
    assert.match(s, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeCursor(s, '-lastEventAt'), c);
  });

  test('tampered, foreign or mismatched cursors are invalid_cursor', () => {
    const s = encodeCursor({ sort: 'lastEventAt', key: 1, server: 'a', token: 't' });
    assert.throws(() => decodeCursor(s, '-lastEventAt'), code('invalid_cursor'));
    for (const bad of [
      '',
      '!!!',
      'abc',
      Buffer.from('{"v":2}').toString('base64url'),
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('{"v":1,"o":"lastEventAt","k":"1","s":"a","t":"t"}').toString('base64url'),
    ]) {
      assert.throws(() => decodeCursor(bad, 'lastEventAt'), code('invalid_cursor'), bad);
    }
  });
});

describe('session list parameters', () => {
  const parse = (qs: string) => parseSessionQuery(parseQuery(ZSessionListQuery, new URLSearchParams(qs)), NOW, 10_000, 0);

  test('defaults', () => {
    const q = parse('');
    assert.equal(q.limit, 50);
    assert.equal(q.sort, '-lastEventAt');
    assert.equal(q.cursor, null);
    assert.deepEqual(q.filter.flags, []);
    assert.equal(q.filter.fromMs, null);
  });

  test('repeatable and comma-separated flags, AND-ed in SQL', () => {
    const q = parse('flag=refused&flag=renegotiated,boundary');
    assert.deepEqual(q.filter.flags, ['refused', 'renegotiated', 'boundary']);
    const sql = filterSql(q.filter, 'sqlite');
    assert.deepEqual(sql.where, ['"fRefused" = 1', '"fRenegotiated" = 1', '"fBoundary" = 1']);
  });

  test('a token prefix is an index range plus an exact substr test; bytewise on PostgreSQL too', () => {
    const q = parse('token=tok-ab');
    const lite = filterSql(q.filter, 'sqlite');
    assert.deepEqual(lite.where, ['"token" >= ? AND "token" <= ? AND substr("token", 1, ?) = ?']);
    assert.equal(lite.params[0], 'tok-ab');
    assert.equal(lite.params[1], `tok-ab${'\u{10FFFF}'.repeat(256)}`);
    assert.deepEqual(lite.params.slice(2), [6, 'tok-ab']);
    assert.match(filterSql(q.filter, 'postgresql').where[0], /^"token" COLLATE "C" >= \? AND "token" COLLATE "C" <= \?/);
  });

  test('deadlock flag uses the reader’s clock', () => {
    const sql = filterSql(parse('flag=deadlock').filter, 'sqlite');
    assert.deepEqual(sql.params, [NOW - 10_000]);
  });

  test('time bounds are exact instants and may be open-ended', () => {
    const q = parse('from=now-1h');
    assert.equal(q.filter.fromMs, NOW - 3_600_000);
    assert.equal(q.filter.toMs, null);
    assert.equal(parse('to=2026-11-29T10:00:00.5Z'.replace('.5', '.500')).filter.toMs, Date.parse('2026-11-29T10:00:00.500Z'));
    assert.throws(() => parse('from=now&to=now-1m'), code('invalid_time_range'));
  });

  test('bad input gets specific codes', () => {
    assert.throws(() => parse('flag=bogus'), code('invalid_flag'));
    assert.throws(() => parse('state=asleep'), code('invalid_state'));
    assert.throws(() => parse('sort=token'), code('invalid_sort'));
    for (const l of ['0', '501', '-1', 'ten', '1.5']) assert.throws(() => parse(`limit=${l}`), code('invalid_limit'), l);
    assert.throws(() => parse('from=nonsense'), code('invalid_time_range'));
    assert.throws(() => parse('format=xml'), code('invalid_format'));
    assert.equal(parseQuery(ZSessionExportQuery, new URLSearchParams('')).format, 'csv');
  });

  test('the 400 lists every wrong parameter', () => {
    assert.throws(
      () => parse('flag=bogus&limit=0&sort=token'),
      (e: any) =>
        e.code === 'invalid_flag' &&
        e.details.in === 'query' &&
        e.details.issues.map((i: any) => i.parameter).join() === 'flag.0,sort,limit',
    );
  });

  test("the 400's message names the parameter and the value as written, not the repeated value's index", () => {
    assert.throws(
      () => parse('flag=refused&flag=bogus'),
      (e: any) => e.message.startsWith('flag=bogus: ') && e.details.issues[0].parameter === 'flag.1',
    );
    assert.throws(
      () => parse('limit=ten'),
      (e: any) => e.message.startsWith('limit=ten: '),
    );
    const long = 'x'.repeat(200);
    assert.throws(
      () => parse(`sort=${long}`),
      (e: any) => e.message.startsWith(`sort=${'x'.repeat(60)}…: `),
    );
  });

  test('NUL in any parameter is a 400 naming it, never a database error', () => {
    assert.throws(() => parse('token=a%00b'), code('invalid_token'));
    assert.throws(() => parse('server=a%00'), code('invalid_server'));
    assert.throws(() => parseQuery(ZDeadLetterQuery, new URLSearchParams('cursor=%00')), code('invalid_cursor'));
  });
});

describe('cursors with keys the database cannot hold', () => {
  const session = (k: unknown) => Buffer.from(JSON.stringify({ v: 1, o: 'lastEventAt', k, s: 'a', t: 't' })).toString('base64url');
  const dead = (r: unknown) => Buffer.from(JSON.stringify({ v: 1, r, i: 'x' })).toString('base64url');
  test('session cursor keys must be safe integers', () => {
    for (const k of [1.5, 1e300, -1e300, 2 ** 53])
      assert.throws(() => decodeCursor(session(k), 'lastEventAt'), code('invalid_cursor'), String(k));
    assert.equal(decodeCursor(session(1_700_000_000_000), 'lastEventAt').key, 1_700_000_000_000);
  });
  test('dead-letter cursor keys must be safe integers', () => {
    const parseDl = (cursor: string) => parseDeadLetterQuery(parseQuery(ZDeadLetterQuery, new URLSearchParams({ cursor })), NOW);
    for (const r of [1.5, 1e300]) assert.throws(() => parseDl(dead(r)), code('invalid_cursor'), String(r));
    assert.deepEqual(parseDl(dead(1_700_000_000_000)).cursor, { receivedAt: 1_700_000_000_000, id: 'x' });
  });
});

describe('csv', () => {
  test('RFC 4180 quoting and formula neutralisation', () => {
    assert.equal(csvCell(null), '');
    assert.equal(csvCell(12), '12');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    assert.equal(csvCell(-5), '-5');
  });
});
