import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AMBER_AFTER_MS, RED_AFTER_MS, dataAgeTone, lastSeenTone, QUIET_AMBER_MS, QUIET_RED_MS } from '@/lib/ui/data-age';

test('data age: fresh while live, amber then red as updates stop, paused when the operator turned refresh off', () => {
  const base = { stream: 'open' as const, off: false, lastFetchFailed: false };
  assert.equal(dataAgeTone({ ...base, ageMs: 2000 }), 'fresh');
  assert.equal(dataAgeTone({ ...base, ageMs: AMBER_AFTER_MS }), 'amber');
  assert.equal(dataAgeTone({ ...base, ageMs: RED_AFTER_MS }), 'red');
  assert.equal(dataAgeTone({ ...base, stream: 'down', ageMs: 2000 }), 'fresh', 'the fallback refresh still succeeds');
  assert.equal(dataAgeTone({ ...base, stream: 'down', ageMs: 2000, lastFetchFailed: true }), 'amber');
  assert.equal(dataAgeTone({ ...base, ageMs: RED_AFTER_MS * 10, off: true }), 'paused');
});

test('data age: Doorwatch not answering is red at once, whatever the age; paused still wins when refresh is off', () => {
  const base = { stream: 'down' as const, off: false, lastFetchFailed: true, unreachable: true };
  assert.equal(dataAgeTone({ ...base, ageMs: 500 }), 'red');
  assert.equal(dataAgeTone({ ...base, ageMs: null }), 'red');
  assert.equal(dataAgeTone({ ...base, stream: 'open', lastFetchFailed: false, ageMs: 0 }), 'red');
  assert.equal(dataAgeTone({ ...base, ageMs: 500, unreachable: false }), 'amber', 'a failing refresh alone is amber');
  assert.equal(dataAgeTone({ ...base, ageMs: 500, off: true }), 'paused');
});

test('last seen: amber, then red, as a server goes quiet', () => {
  assert.equal(lastSeenTone(3000), 'fresh');
  assert.equal(lastSeenTone(QUIET_AMBER_MS), 'amber');
  assert.equal(lastSeenTone(QUIET_RED_MS), 'red');
  assert.equal(lastSeenTone(null), 'red');
});
