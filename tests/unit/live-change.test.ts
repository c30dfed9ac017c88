import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeOf, decodeChange, encodeChange, mergeChanges, MAX_PAYLOAD_BYTES, touchesToken } from '@/lib/live/change';
import { isAffected } from '@/lib/ui/live-invalidation';

test('a change round-trips through its NOTIFY payload', () => {
  const c = changeOf([
    { server: 'a', token: 't1' },
    { server: 'a', token: 't1' },
    { server: 'b', token: 't2' },
  ]);
  assert.deepEqual(c, {
    servers: ['a', 'b'],
    tokens: [
      { server: 'a', token: 't1' },
      { server: 'b', token: 't2' },
    ],
    allTokens: false,
  });
  assert.deepEqual(decodeChange(encodeChange(c)), c);
  assert.equal(decodeChange('not json'), null);
  assert.equal(decodeChange('{"servers":1}'), null);
});

test('a large change is summarized under the 8,000-byte NOTIFY limit: servers only, every token may have changed', () => {
  const tokens = Array.from({ length: 500 }, (_, i) => ({ server: 'demo-us-1', token: `tok-${'x'.repeat(40)}-${i}` }));
  const payload = encodeChange(changeOf(tokens));
  assert.ok(Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES);
  const back = decodeChange(payload)!;
  assert.deepEqual(back, { servers: ['demo-us-1'], tokens: [], allTokens: true });
  assert.ok(touchesToken(back, 'demo-us-1', 'tok-anything'));
  assert.ok(!touchesToken(back, 'other', 'tok-anything'));
});

test('coalescing merges tokens and servers; allTokens is sticky', () => {
  const m = mergeChanges([
    changeOf([{ server: 'a', token: '1' }]),
    { servers: ['b'], tokens: [], allTokens: true },
    changeOf([{ server: 'a', token: '1' }]),
  ]);
  assert.deepEqual(m, { servers: ['a', 'b'], tokens: [{ server: 'a', token: '1' }], allTokens: true });
});

test('only the affected queries are invalidated', () => {
  const c = changeOf([{ server: 'a', token: 't1' }]);
  assert.ok(isAffected(c, ['doorwatch', 'stats', { from: 'now-1h' }]));
  assert.ok(isAffected(c, ['doorwatch', 'servers']));
  assert.ok(isAffected(c, ['doorwatch', 'sessions', { server: [] }]));
  assert.ok(isAffected(c, ['doorwatch', 'sessions', { server: ['a'] }]));
  assert.ok(!isAffected(c, ['doorwatch', 'sessions', { server: ['b'] }]));
  assert.ok(isAffected(c, ['doorwatch', 'session', 'a', 't1']));
  assert.ok(!isAffected(c, ['doorwatch', 'session', 'a', 't2']));
  assert.ok(!isAffected(c, ['doorwatch', 'session', 'b', 't1']));
  assert.ok(isAffected(c, ['doorwatch', 'token-lookup', 't1']));
  assert.ok(!isAffected(c, ['doorwatch', 'token-lookup', 't9']));
  assert.ok(!isAffected(c, ['doorwatch', 'me']));
});
